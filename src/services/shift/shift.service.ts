/**
 * The shift's door (docs/station.md#productivity-and-the-shift): an operator's session summed up when it
 * ends (stored for the shift report, and sent to central as `session_summary` in the same transaction:
 * docs/mqtt.md#session-summaries), and the productivity targets the seats' figures are shown against.
 */
import type { ShiftRepo } from "../../db/shift.repo.js";
import type { ProductivityTargets } from "../../domain/productivity.js";
import {
  effectiveTargets,
  type ProductivityTargetsInput,
  type SetTargets,
  storedTargets,
  withTargets,
} from "../../domain/productivity.schema.js";
import { type OpenSession, type SessionSummary, sessionNotification } from "../../domain/session-summary.js";
import type { UnitOfWork } from "../unit-of-work/unit-of-work.js";

export interface ShiftDeps {
  repo: ShiftRepo;
  unitOfWork: UnitOfWork;
  /** `station.productivity` of the configuration (0: no target) */
  configured: { linesPerHour: number; unitsPerHour: number };
}

/** The summary of the session ending at the seat now (the station's shift keeps the tally), or null. */
export type SessionSummariser = (seat: string, at: number) => SessionSummary | null;

export function createShiftService({ repo, unitOfWork: uow, configured }: ShiftDeps) {
  let summarise: SessionSummariser | undefined;
  // read once, then kept with every change: the screen asks on every push
  let set: SetTargets | undefined;
  const current = (): SetTargets => {
    set ??= storedTargets(repo.targets());
    return set;
  };
  return {
    /** Stores the summary and queues its notification, in one transaction. */
    sessionEnded(summary: SessionSummary): void {
      uow.run((tx) => {
        repo.insert(summary);
        repo.dropOpenSession(summary.seat);
        tx.notify("session_summary", sessionNotification(summary));
      });
    },
    /**
     * The open session's tally after work was done, as `latest` gives it when the write runs: kept with
     * the next group commit (a scan's answer waits for no fsync of it).
     */
    sessionWorked(latest: () => OpenSession | null): Promise<void> {
      return uow.runAsync(() => {
        const open = latest();
        if (open) repo.saveOpenSession(open);
      });
    },
    /** The seat's open session as last kept, for this login only (`loggedInAt`), else null. */
    openSession(seat: string, operator: string, loggedInAt: number | null): OpenSession | null {
      const o = repo.openSession(seat);
      return o && loggedInAt !== null && o.operator === operator && o.loggedInAt === loggedInAt ? o : null;
    },
    /** Who sums up a session as it ends (the station's shift, once it runs). */
    summarising(fn: SessionSummariser | undefined): void {
      summarise = fn;
    },
    /**
     * Inside a logout's transaction (any path: a badge, a tap, the station API, central's sign-out, an
     * idle sign-out): the ending session's summary joins it as a savepoint, so a logout never commits
     * without its summary nor a summary without its logout (docs/mqtt.md#session-summaries).
     */
    sessionEnding(seat: string): void {
      uow.run((tx) => {
        const summary = summarise?.(seat, tx.now);
        if (!summary) return;
        repo.insert(summary);
        repo.dropOpenSession(summary.seat);
        tx.notify("session_summary", sessionNotification(summary));
      });
    },
    /** The targets in effect now. */
    targets(): ProductivityTargets {
      return effectiveTargets(configured, current());
    },
    /** Central's targets (request/set_productivity_targets); answers the targets in effect afterwards. */
    setTargets(input: ProductivityTargetsInput): ProductivityTargets {
      const next = withTargets(current(), input);
      uow.run((tx) => {
        repo.setTargets(next);
        tx.announce("station", {});
      });
      // read again next time: inside an MQTT request this is a savepoint its transaction may still undo
      set = undefined;
      return effectiveTargets(configured, next);
    },
    /** The sessions that ended in [from, to), oldest first (the shift report). */
    sessions: (from: number, to: number): SessionSummary[] => repo.endedBetween(from, to),
  };
}

export type ShiftService = ReturnType<typeof createShiftService>;
