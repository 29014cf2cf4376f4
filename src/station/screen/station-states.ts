/**
 * What the operator screen remembers of the station's states between two reads
 * (docs/station.md#operator-screen "Notices"): the visit of the presented racks (the card's "line n of
 * m"), the stagings the station refused lately (the bus's `stageFailed`), each seat's work a change
 * elsewhere dropped mid-line (until the seat's next input), the known slots of the presented racks (read
 * again when the racks change), and the link to central, looked at once a second so that a lost broker
 * or a filling outbox shows without waiting for a scan. The words are state/station-notices.ts's.
 */
import type { ScreenPickRow } from "../../domain/screen-rows.js";
import type { EventBus } from "../../events.js";
import type { Outcome } from "../engine.js";
import type { SeatState, StationMode } from "../seat.types.js";
import type { ScreenEventInput } from "./state/event.js";
import { doneLines, nextVisit, type RackVisit } from "./state/rack-visit.js";
import { droppedWork, linkNotices } from "./state/station-notices.js";
import type { CentralLink, DroppedWork, ReleasedBin, StageFailure } from "./state/station-types.js";
import type { ScreenInput } from "./state/types.js";

const OWNER = "operator-screen-states";
/** Refused stagings (and freed bins) shown at once, newest first. */
const KEEP_FAILURES = 5;
/** How often the link to central and the outbox are looked at. */
const LINK_CHECK_MS = 1_000;

export interface StationStatesDeps {
  bus: EventBus;
  reads: {
    link?(): CentralLink | null;
    rackSlots?(): string[];
    requestState?(type: "PICK" | "PUT", id: string): string | null;
    sku?(itemId: number): string | null;
  };
  station: { seats: readonly string[] };
}

const MODES: readonly string[] = ["pick", "put", "audit"];

export function createStationStates(deps: StationStatesDeps) {
  const { reads } = deps;
  let visit: RackVisit | null = null;
  let failures: StageFailure[] = [];
  let slots: string[] | null = null;
  let before = new Map<string, SeatState>();
  const dropped = new Map<string, DroppedWork>();
  const released = new Map<string, ReleasedBin[]>();
  let timer: NodeJS.Timeout | undefined;
  let lastLink = "";

  const link = (): CentralLink | null => reads.link?.() ?? null;
  const requestState = (type: "PICK" | "PUT", id: string) => reads.requestState?.(type, id) ?? null;

  return {
    /** The members of one seat's screen input that come from this memory. */
    of(
      seat: string,
      mode: StationMode,
      racks: readonly string[],
      pickLines: readonly ScreenPickRow[],
    ): Pick<ScreenInput, "link" | "stageFailures" | "dropped" | "pickDone" | "rackSlots" | "releasedBins"> {
      visit = nextVisit(visit, racks, pickLines);
      // a refusal for the mode is forgotten once the station is in another mode
      failures = failures.filter((f) => !f.codes.includes("pps_mode_incorrect") || f.mode === mode);
      slots ??= reads.rackSlots?.() ?? [];
      return {
        link: link(),
        stageFailures: failures,
        dropped: dropped.get(seat) ?? null,
        pickDone: doneLines(visit, pickLines),
        rackSlots: slots,
        releasedBins: released.get(seat) ?? [],
      };
    },

    /**
     * After every input: work dropped mid-line is kept for its seat; the seat's next input clears it,
     * and the bins central freed.
     */
    record(
      seat: string | null,
      input: ScreenEventInput,
      outcome: Outcome,
      seatsAfter: ReadonlyMap<string, SeatState>,
    ): void {
      if (seat !== null && input.kind === "changed" && outcome.did === "dropped") {
        const d = droppedWork(before.get(seat), { requestState, sku: (id) => reads.sku?.(id) ?? null });
        if (d) dropped.set(seat, d);
      } else if (outcome.result === "done")
        for (const s of seat === null ? deps.station.seats : [seat]) {
          dropped.delete(s);
          released.delete(s);
        }
      before = new Map(seatsAfter);
    },

    start(changed: () => void, seats: ReadonlyMap<string, SeatState>): void {
      before = new Map(seats);
      deps.bus.on(OWNER, "stageFailed", (f) => {
        const mode = (MODES.includes(f.mode) ? f.mode : "pick") as StationMode;
        const failure: StageFailure = {
          put: f.externalServiceRequestId,
          tote: f.tote,
          bin: f.bin,
          codes: f.codes,
          mode,
        };
        failures = [failure, ...failures.filter((x) => x.put !== failure.put)].slice(0, KEEP_FAILURES);
        changed();
      });
      deps.bus.on(OWNER, "binReleased", (r) => {
        const bin: ReleasedBin = { bin: r.binId, orders: r.requests };
        for (const s of deps.station.seats)
          released.set(
            s,
            [bin, ...(released.get(s) ?? []).filter((x) => x.bin !== r.binId)].slice(0, KEEP_FAILURES),
          );
        changed();
      });
      // a put staged after all is no longer refused
      deps.bus.on(OWNER, "request", (r) => {
        if (r.type !== "PUT" || !failures.some((f) => f.put === r.externalServiceRequestId)) return;
        if (requestState("PUT", r.externalServiceRequestId) !== "created")
          failures = failures.filter((f) => f.put !== r.externalServiceRequestId);
      });
      // racks came or went: their slots are read again
      deps.bus.on(OWNER, "station", () => {
        slots = null;
      });
      timer = setInterval(() => {
        // only what the notices say: a backlog that grows below the threshold changes nothing on screen
        const now = JSON.stringify(linkNotices(link()));
        if (now === lastLink) return;
        lastLink = now;
        changed();
      }, LINK_CHECK_MS);
      timer.unref();
    },

    stop(): void {
      if (timer) clearInterval(timer);
      timer = undefined;
      deps.bus.off(OWNER);
    },
  };
}

export type StationStates = ReturnType<typeof createStationStates>;
