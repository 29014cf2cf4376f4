/**
 * Keeps each seat's screen state and pushes it on every change (docs/station.md#operator-screen):
 * after every input the engine took (its watchers), every committed change on the bus (requests, the
 * station, audits, device health) and every tapped station operation. Changes that arrive together
 * are derived once (a microtask later, after the engine has set the lights), and a state equal to the
 * one last sent is not sent again. Only seats with a connected screen are derived on changes; a read
 * derives at once. The delivery to connected screens is fan-out.ts; the last event each seat
 * shows is kept by state/last-events.ts.
 */

import type { Logger } from "pino";
import type { DeviceHealth } from "../../devices/hub.types.js";
import type { Productivity } from "../../domain/productivity.js";
import type { ScreenAuditRow, ScreenPickRow, ScreenPutRow, ScreenSlotRow } from "../../domain/screen-rows.js";
import type { LastConfirmed } from "../../domain/seat-correction.js";
import type { PauseSource } from "../../domain/seat-pause.js";
import type { LostWork } from "../../domain/seat-work.js";
import type { EventBus } from "../../events.js";
import type { BinView } from "../bin-lights.js";
import type { EngineInput, Outcome } from "../engine.js";
import { pendingBin } from "../seat.machine.js";
import type { SeatState, StationMode } from "../seat.types.js";
import { createScreenFanOut, type ScreenListener } from "./fan-out.js";
import { isLang } from "./messages/messages.js";
import type { ScreenEventInput } from "./state/event.js";
import { createLastEvents } from "./state/last-events.js";
import { nextPick } from "./state/operator.js";
import { seatWork } from "./state/seat-work.js";
import { deriveScreen } from "./state/state.js";
import type { CentralLink } from "./state/station-types.js";
import type { SupervisorScanAnswer } from "./state/supervisor-types.js";
import type { BinOrder, IdleNotice, Lang, LastEvent, ScreenState, SeatRefusal } from "./state/types.js";
import { nextVersion, type Versioned } from "./state/version.js";
import { createStationStates, type StationStates } from "./station-states.js";

const OWNER = "operator-screen";
/** Operators offered as login buttons. */
const RECENT_OPERATORS = 8;

/**
 * The screen's repository (db/screen.repo.ts, passed as it is): the work at the station as the screen
 * shows it (the orders in each bin, the pick lines on the presented racks and whether picks wait for a
 * rack, the racks, the staged puts' items, the audit being counted) and the operators seen at the
 * station with their languages. The two writes, an operator seen and an operator's language, are the
 * screen's own memory for its login buttons and its language: no station state, nothing to notify,
 * one statement each, so they are not a unit of work's change.
 */
export interface ScreenStore {
  orders(): Readonly<Record<string, BinOrder[]>>;
  pickLines(): ScreenPickRow[];
  pickWaiting(): boolean;
  racks(): string[];
  putItems(): ScreenPutRow[];
  audit(): { auditId: string; kq: boolean; lines: ScreenAuditRow[] } | null;
  /** An audit queued for the station, not begun (docs/station.md#an-audit-begun-at-the-seat). */
  queuedAudit?(): string | null;
  /** The presented racks' slots and their items (put mode: the suggested slot). */
  putSlots?(): ScreenSlotRow[];
  /** What a restart did to the work lit at the seats, until acknowledged (docs/station.md#after-a-restart). */
  lostWork?(): Array<{ seat: string; work: LostWork }>;
  operators(limit: number): string[];
  operatorLang(name: string): string | null;
  sawOperator(name: string, at: number): void;
  setOperatorLang(name: string, lang: string | null): void;
  /** every known slot of the presented racks (the rack face) */
  rackSlots?(): string[];
  /** a request's state now, or null (was the dropped work's request cancelled?) */
  requestState?(type: "PICK" | "PUT", id: string): string | null;
  sku?(itemId: number): string | null;
  /** Forgets what a restart did to a seat's lit work (acknowledged); whether there was anything. */
  forgetLost?(seat: string): boolean;
}

/** What the publisher reads about the station: the store, the engine's reads and the devices. */
export interface ScreenReads extends Omit<ScreenStore, "setOperatorLang"> {
  mode(): StationMode;
  user(seat: string): string | null;
  bins(): BinView[];
  devices(): DeviceHealth[];
  printErrors(): Readonly<Record<string, string>>;
  /** The label printer's own state (a Zebra's ~HS), or null when it says none. */
  printerState?(): { ok: boolean; cause: string | null } | null;
  /** Whether the storage budget is spent (services/unit-of-work/storage-budget.ts). */
  storageBudgetSpent(): boolean;
  /** The item a scanned text is a barcode of, or null. */
  item(barcode: string): { sku: string; description: string | null } | null;
  /** The link to central and the outbox (src/sync), or null without a broker. */
  link?(): CentralLink | null;
  /** Whether the seat's last scan can be taken back (engine `canUndo`). */
  undoable?(seat: string): boolean;
  /** An audit queued for the station, not begun yet: the seat in audit mode can begin it. */
  queuedAudit?(): string | null;
  /** The sources holding a seat paused, every paused seat, and a seat's oldest open message (seat-control). */
  pauses?(seat: string): readonly PauseSource[];
  pausedSeats?(): ReadonlySet<string>;
  message?(seat: string): { id: number; text: string; by: string; sentAt: number } | null;
  /** The seat's productivity figures and idle warning (station/shift/shift.shell.ts); none: not shown. */
  productivity?(seat: string): Productivity | null;
  idle?(seat: string): IdleNotice | null;
  /** The last answer to a supervisor's badge scanned at the seat (supervisor-scan.ts). */
  supervisorScan?(seat: string): { n: number; answer: SupervisorScanAnswer } | null;
  /** The seat's last confirmed pick or put, a correction's subject (last-confirmed.ts). */
  lastConfirmed?(seat: string): LastConfirmed | null;
}

export interface ScreenPublisherDeps {
  engine: {
    watch(w: (input: EngineInput, outcome: Outcome) => void): void;
    seats(): Array<{ seat: string } & SeatState>;
  };
  bus: EventBus;
  reads: ScreenReads;
  station: {
    site: string;
    ppsId: string;
    seats: readonly string[];
    language: Lang;
    stationPrinting: boolean;
    simulatedScanners: ReadonlySet<string>;
    /** how long a refusal's error signal (and the screen's alert) shows */
    errorSignalMs: number;
    /** the bin whose light signals a refusal when the seat has nothing lit (topology `signalLight`), or none */
    signalBin: string | null;
    damageBin: string | null;
    irtBin: string | null;
    /** each seat's scanners, by seat */
    scanners: Readonly<Record<string, string[]>>;
    /** the light controller of each bin, by bin */
    binLights: Readonly<Record<string, string>>;
    /** the devices of each bin's button and sensor, by bin */
    binInputs?: Readonly<Record<string, string[]>>;
    /** the training station's publisher: every state says `training` (docs/station.md#training) */
    training?: boolean;
  };
  now: () => number;
  log: Logger;
}

type Seats = Map<string, SeatState>;

const pendingOf = (s: SeatState | undefined): string | null => (s ? pendingBin(s) : null);

/**
 * Derives once for changes that arrive together: the first schedules `refresh` a microtask later (after
 * the engine has set the lights), the rest join it. Nothing is derived before start or after stop.
 */
function createRefreshSchedule(refresh: () => void) {
  let scheduled = false;
  let running = false;
  function flush(): void {
    scheduled = false;
    if (!running) return;
    refresh();
  }
  return {
    changed(): void {
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(flush);
    },
    start(): void {
      running = true;
    },
    stop(): void {
      running = false;
    },
  };
}

/** One seat's screen state from what the station reads now (the seats' states given, read once per push). */
function seatScreen(
  deps: ScreenPublisherDeps,
  seat: string,
  seats: Seats,
  lastEvent: () => LastEvent | null,
  refusal: SeatRefusal | null,
  states: StationStates,
) {
  const { reads, station } = deps;
  const mode = reads.mode();
  const racks = mode === "pick" ? reads.racks() : [];
  const pickLines = mode === "pick" ? reads.pickLines() : [];
  const operator = reads.user(seat);
  const own = operator === null ? null : reads.operatorLang(operator);
  return deriveScreen({
    seat,
    site: station.site,
    ppsId: station.ppsId,
    lang: isLang(own) ? own : station.language,
    mode,
    operator,
    seats,
    bins: reads.bins(),
    orders: reads.orders(),
    printErrors: reads.printErrors(),
    printerState: reads.printerState?.() ?? null,
    stationPrinting: station.stationPrinting,
    devices: reads.devices(),
    simulatedScanner: station.simulatedScanners.has(seat),
    racks,
    pickLines,
    pickWaiting: mode === "pick" && reads.pickWaiting(),
    puts: mode === "put" ? reads.putItems() : [],
    audit: mode === "audit" ? reads.audit() : null,
    operators: operator === null ? reads.operators(RECENT_OPERATORS) : [],
    lastEvent: lastEvent(),
    now: deps.now(),
    refusal,
    storageBudgetSpent: reads.storageBudgetSpent(),
    damageBin: station.damageBin,
    irtBin: station.irtBin,
    scanners: station.scanners[seat] ?? [],
    binLights: station.binLights,
    binInputs: station.binInputs ?? {},
    ...states.of(seat, mode, racks, pickLines),
    training: station.training === true,
    undoable: reads.undoable?.(seat) ?? false,
    queuedAudit: mode === "audit" ? (reads.queuedAudit?.() ?? null) : null,
    pauses: reads.pauses?.(seat) ?? [],
    pausedSeats: reads.pausedSeats?.() ?? new Set(),
    message: reads.message?.(seat) ?? null,
    slots: mode === "put" ? (reads.putSlots?.() ?? []) : [],
    restart: reads.lostWork?.().find((l) => l.seat === seat)?.work ?? null,
    productivity: reads.productivity?.(seat) ?? null,
    idle: reads.idle?.(seat) ?? null,
    supervisorScan: reads.supervisorScan?.(seat) ?? null,
    lastConfirmed: reads.lastConfirmed?.(seat) ?? null,
  });
}

/** The bin whose light the engine flashed for a refusal (engine.ts `signal`); none for a tapped operation. */
function signalBinOf(
  deps: ScreenPublisherDeps,
  seat: string | null,
  input: ScreenEventInput,
  pending: string | null,
): string | null {
  if (input.kind === "tap") return null;
  if (seat === null) return input.kind === "bin" ? input.binId : null;
  return pending ?? deps.station.signalBin;
}

/** Operators logging in at any seat, by any path, are remembered for the login buttons. */
function operatorsSeen({ reads, station, now }: ScreenPublisherDeps): () => void {
  const users = new Map<string, string | null>();
  return () => {
    for (const seat of station.seats) {
      const user = reads.user(seat);
      if (user !== null && users.get(seat) !== user) reads.sawOperator(user, now());
      users.set(seat, user);
    }
  };
}

export function createScreenPublisher(deps: ScreenPublisherDeps) {
  const screens = createScreenFanOut();
  const lastEvents = createLastEvents({ seats: deps.station.seats, now: deps.now });
  const noteOperators = operatorsSeen(deps);
  const states = createStationStates(deps);

  const refusals = new Map<string, SeatRefusal>();
  const versions = new Map<string, Versioned>();
  // versions start at the clock, so a page that outlived an agent restart holds an older one
  const first: Versioned = { version: deps.now(), key: null };
  const timers = new Set<NodeJS.Timeout>();

  const seatStates = (): Seats =>
    new Map(deps.engine.seats().map(({ seat, ...s }) => [seat, s as SeatState]));
  const state = (seat: string, seats = seatStates()): ScreenState => {
    const derived = seatScreen(
      deps,
      seat,
      seats,
      () => lastEvents.of(seat),
      refusals.get(seat) ?? null,
      states,
    );
    const v = nextVersion(versions.get(seat) ?? first, derived);
    versions.set(seat, v);
    return { ...derived, version: v.version };
  };

  const schedule = createRefreshSchedule(() => {
    try {
      noteOperators();
      const seats = seatStates();
      screens.send((seat) => JSON.stringify(state(seat, seats)));
    } catch (err) {
      deps.log.error({ err }, "operator screen refresh failed");
    }
  });
  const { changed } = schedule;

  /** Pushes again when an alert (and the tile's error signal) is over. */
  function expireAt(until: number): void {
    const timer = setTimeout(
      () => {
        timers.delete(timer);
        changed();
      },
      Math.max(0, until - deps.now()) + 1,
    );
    timer.unref();
    timers.add(timer);
  }

  /** Keeps a refusal for the seats' alerts, or forgets a seat's alert once it did something. */
  function noteRefusal(seat: string | null, input: ScreenEventInput, outcome: Outcome, seats: Seats): void {
    const affected = seat === null ? deps.station.seats : [seat];
    if (outcome.result === "done") {
      for (const s of affected) refusals.delete(s);
      return;
    }
    if (outcome.result !== "refused") return;
    const until = deps.now() + deps.station.errorSignalMs;
    const code = input.kind === "scan" ? input.barcode : null;
    const item = code === null ? null : deps.reads.item(code);
    for (const s of affected) {
      const lit = pendingOf(seats.get(s));
      refusals.set(s, {
        reason: outcome.reason ?? "",
        code,
        item,
        signalBin: signalBinOf(deps, seat, input, lit),
        bin: input.kind === "bin" ? input.binId : null,
        lit,
        until,
      });
    }
    expireAt(until);
  }

  /** Records what a seat (or, for a bin nobody had lit, every seat) just did, then pushes. */
  function record(seat: string | null, input: ScreenEventInput, outcome: Outcome): void {
    const seats = seatStates();
    states.record(seat, input, outcome, seats);
    noteRefusal(seat, input, outcome, seats);
    lastEvents.record(seat, input, outcome, seats, deps.reads.bins());
    changed();
  }

  return {
    /** The seat's screen state now (GET /station/seats/{seat}/screen). */
    state: (seat: string): ScreenState => state(seat),

    /** The pick line the screen shows next (what a problem before a scan is about), or null. */
    next: (seat: string) =>
      deps.reads.mode() === "pick"
        ? nextPick(seatWork({ seat, seats: seatStates(), pickLines: deps.reads.pickLines() }))
        : null,

    /** Calls `listener` with the state's JSON now and on every change, until the returned function. */
    subscribe(seat: string, listener: ScreenListener): () => void {
      return screens.subscribe(seat, listener, () => JSON.stringify(state(seat)));
    },

    record,
    /** Something the screen shows changed outside the engine and the bus (a print job's result). */
    changed,
    start(): void {
      schedule.start();
      deps.engine.watch((input, outcome) => record(outcome.seat, input, outcome));
      for (const ev of ["request", "station", "audit", "labelJob", "printer"] as const)
        deps.bus.on(OWNER, ev, changed);
      states.start(changed, seatStates());
      noteOperators();
    },
    stop(): void {
      schedule.stop();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      states.stop();
      deps.bus.off(OWNER);
      screens.clear();
    },
  };
}

export type ScreenPublisher = ReturnType<typeof createScreenPublisher>;
