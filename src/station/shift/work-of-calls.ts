/**
 * What the operation calls of one input count for in an operator's session
 * (docs/station.md#productivity-and-the-shift). Pure. A line is one pick, one put or one audit line
 * counted; its units are the quantity it booked. An exception report counts once under its reason and
 * adds no units; logging in, racks, releases and emptied bins are not work of this kind.
 */
import type { OpCall } from "../seat.types.js";

export interface WorkOfInput {
  lines: number;
  units: number;
  exceptions: string[];
}

export function workOfCalls(calls: readonly OpCall[]): WorkOfInput {
  const work: WorkOfInput = { lines: 0, units: 0, exceptions: [] };
  for (const c of calls) {
    switch (c.op) {
      case "pick":
      case "put":
        work.lines += 1;
        work.units += c.input.quantity;
        break;
      case "auditCount":
        work.lines += 1;
        work.units += c.input.good_qty + c.input.damaged_qty + c.input.unscannable_qty;
        break;
      case "pickException":
      case "putException":
        work.exceptions.push(c.input.reason);
        break;
      default:
        break;
    }
  }
  return work;
}
