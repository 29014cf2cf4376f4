/**
 * What central, a supervisor or a pause input tells a seat (docs/station.md#pausing-a-seat): pauses and
 * resumes, messages the operator acknowledges, and signing the operator out. Each is one transaction
 * whose notification (seat_paused, seat_resumed, message_acknowledged: docs/mqtt.md#seat-notifications)
 * commits with it. The pause rules are the pure domain/seat-pause.ts; this door only keeps them.
 */
import type { SeatControlRepo, SeatMessageRow } from "../../db/seat-control.repo.js";
import type { StationRepo } from "../../db/station.repo.js";
import { AppError } from "../../domain/errors.js";
import {
  type PauseInput,
  type PauseSource,
  type PauseStep,
  pauseNotification,
  pauseStep,
  resumable,
} from "../../domain/seat-pause.js";
import type { Tx, UnitOfWork } from "../unit-of-work/unit-of-work.js";

export interface SeatControlDeps {
  repo: SeatControlRepo;
  station: Pick<StationRepo, "seat" | "login">;
  unitOfWork: UnitOfWork;
  /** In the sign-out's transaction: the ending session summed up with it (docs/mqtt.md#session-summaries). */
  sessionEnding?: (seat: string) => void;
}

/** A seat's pause as the callers answer it. */
export interface SeatPauseView {
  seat: string;
  paused: boolean;
  sources: Array<{ source: string; by: string; reason: string; since: string }>;
}

const view = (seat: string, sources: readonly PauseSource[]): SeatPauseView => ({
  seat,
  paused: sources.length > 0,
  sources: sources.map((s) => ({
    source: s.source,
    by: s.by,
    reason: s.reason,
    since: new Date(s.since).toISOString(),
  })),
});

export function createSeatControl({ repo, station, unitOfWork: uow, sessionEnding }: SeatControlDeps) {
  function mustSeat(seat: string): void {
    if (!station.seat(seat))
      throw new AppError("not_found", `no seat '${seat}'`, [{ path: "seat", message: "unknown seat" }]);
  }

  /** One pause input at one seat, in the caller's transaction: the step kept and its notification queued. */
  function step(seat: string, input: PauseInput, tx: Tx): PauseStep {
    const s = pauseStep(repo.pauses(seat), input);
    if (!s.changed) return s;
    repo.setPauses(seat, s.sources);
    const n = pauseNotification(seat, s, new Date(tx.now).toISOString());
    tx.notify(n.type, n.data);
    tx.announce("station", {});
    return s;
  }

  return {
    /** The sources holding a seat paused (none: it works). */
    pauses: (seat: string): PauseSource[] => repo.pauses(seat),
    pausedSeats: (): Set<string> => repo.pausedSeats(),

    /** Central or a supervisor pauses a seat; the same pause again changes nothing. */
    pause(seat: string, kind: "central" | "supervisor", by: string, reason: string): SeatPauseView {
      mustSeat(seat);
      return uow.run((tx) =>
        view(seat, step(seat, { type: "pause", kind, by, reason, at: tx.now }, tx).sources),
      );
    },

    /**
     * Central or a supervisor resumes a seat: their pauses clear; a pause input's holds until the input
     * clears, so the answer may still say `paused`. Refused when neither of them paused it.
     */
    resume(seat: string, kind: "central" | "supervisor", by: string): SeatPauseView {
      mustSeat(seat);
      const sources = repo.pauses(seat);
      if (!resumable(sources))
        throw new AppError(
          "invalid_state",
          sources.length
            ? `seat '${seat}' is held by its pause input: it resumes when the input clears`
            : `seat '${seat}' is not paused`,
          [{ path: "seat", message: sources.length ? "paused by an input" : "not paused" }],
          { seat, sources: view(seat, sources).sources },
        );
      return uow.run((tx) => view(seat, step(seat, { type: "resume", kind, by, at: tx.now }, tx).sources));
    },

    /** A pause input's level (an e-stop, a light curtain) for the seats it holds. */
    input(
      seats: readonly string[],
      device: string,
      channel: string,
      active: boolean,
      reason: string,
    ): boolean {
      return uow.run((tx) => {
        let changed = false;
        for (const seat of seats)
          changed =
            step(seat, { type: "input", device, channel, active, reason, at: tx.now }, tx).changed || changed;
        return changed;
      });
    },

    /** A message for the seat's operator, shown until acknowledged. */
    send(seat: string, text: string, by: string): { seat: string; id: number } {
      mustSeat(seat);
      return uow.run((tx) => {
        const id = repo.send(seat, text, by, tx.now);
        tx.announce("station", {});
        return { seat, id };
      });
    },

    /** Messages not yet acknowledged, oldest first. */
    openMessages: (): SeatMessageRow[] => repo.openMessages(),

    /** The operator acknowledges a message: it leaves the screen, and central is told. */
    acknowledge(seat: string, id: number, user: string | null): void {
      uow.run((tx) => {
        const message = repo.openMessages().find((m) => m.id === id && m.seat === seat);
        if (!message || !repo.acknowledge(seat, id, user ?? "", tx.now))
          throw new AppError("not_found", `no open message ${id} at seat '${seat}'`, [
            { path: "id", message: "no such message waiting at this seat" },
          ]);
        const at = new Date(tx.now).toISOString();
        tx.notify("message_acknowledged", {
          seat,
          id,
          text: message.text,
          by: message.by,
          sentAt: new Date(message.sentAt).toISOString(),
          acknowledgedBy: user,
          timestamp: at,
        });
        tx.announce("station", {});
      });
    },

    /** Central signs the seat's operator out; the seat's work (its bins and orders) stays. */
    signOut(seat: string): { seat: string; operator: string | null } {
      mustSeat(seat);
      return uow.run((tx) => {
        const operator = station.seat(seat)?.userName ?? null;
        if (operator === null)
          throw new AppError("invalid_state", `no operator is logged in at seat '${seat}'`, [
            { path: "seat", message: "nobody logged in" },
          ]);
        sessionEnding?.(seat);
        station.login(seat, null, null);
        tx.announce("station", {});
        return { seat, operator };
      });
    },
  };
}

export type SeatControl = ReturnType<typeof createSeatControl>;
