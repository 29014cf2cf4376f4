/**
 * Each seat's last confirmed pick or put (docs/station.md#undo): what a supervisor's correction at the
 * seat is about. Kept in memory from the engine's committed work; any other work at the seat (an
 * exception, a login or logout, a count) ends it, and so does a correction made: one per confirm.
 */
import type { LastConfirmed } from "../../domain/seat-correction.js";
import type { OpCall } from "../seat.types.js";

export function createLastConfirmed(binOf: (order: string) => string | null) {
  const last = new Map<string, LastConfirmed>();

  function confirmedOf(c: OpCall): LastConfirmed | null {
    if (c.op === "put" && c.input.uid !== undefined)
      return {
        kind: "put",
        request: c.input.externalServiceRequestId,
        uid: Number(c.input.uid),
        slot: c.input.location,
        quantity: c.input.quantity,
      };
    if (c.op === "pick") {
      const bin = binOf(c.input.externalServiceRequestId);
      return bin === null
        ? null
        : { kind: "pick", request: c.input.externalServiceRequestId, bin, quantity: c.input.quantity };
    }
    return null;
  }

  return {
    /** The engine's committed work at a seat (engine `watchWork`). */
    worked(seat: string, calls: readonly OpCall[]): void {
      // a rack arriving is not the operator's work: it leaves the last confirm as it is
      const work = calls.filter((c) => c.op !== "rackPresented");
      if (work.length === 0) return;
      const confirmed = work.map(confirmedOf);
      const end = confirmed[confirmed.length - 1] ?? null;
      if (end) last.set(seat, end);
      else last.delete(seat);
    },
    of: (seat: string): LastConfirmed | null => last.get(seat) ?? null,
    forget: (seat: string): void => void last.delete(seat),
  };
}

export type LastConfirmedMemory = ReturnType<typeof createLastConfirmed>;
