/**
 * The task part of the screen state (pure): what the operator works on in the station's mode.
 * - pick: before any scan, the reserved lines of the orders at the station on the presented racks
 *   (slot, SKU, description, image, quantity, target bin), in work order; after the scan, the lit one;
 * - put: the staged totes, then the chosen tote's remaining items, the item being put and its slot;
 * - audit: the slot to count (blind: the expected quantity is not shown), its lines and the running
 *   count, and the slots still to count.
 * Rows reach the page as the repository reads them (domain/screen-rows.ts), with only what is the screen's
 * own added (a line lit, a running count): nothing here copies a row's fields.
 */

import type { ScreenPickRow } from "../../../domain/screen-rows.js";
import type { SeatState } from "../../seat.types.js";
import type { ScreenInput, Task } from "./types.js";

/** Whether a pick row is the line the seat has lit (its order, line and slot). */
export const isLit = (row: ScreenPickRow, state: SeatState): boolean =>
  state.step === "pick_confirm" &&
  row.order === state.pick.externalServiceRequestId &&
  row.line === state.pick.line &&
  row.slot === state.pick.location;

/** The rows as read, each with whether it is lit: a field the repository reads reaches the page as it is. */
export function pickTask(input: ScreenInput, state: SeatState): Task {
  const lines = input.pickLines.map((row) => ({ ...row, lit: isLit(row, state) }));
  const lit = lines.find((l) => l.lit);
  const current =
    state.step === "pick_confirm" && lit
      ? {
          ...lit,
          // what the seat's confirm picks (the row read now may differ after a change elsewhere)
          quantity: state.pick.quantity,
          scanned: state.pick.scanRequired ? (state.scanned ?? 0) : null,
        }
      : null;
  return { kind: "pick", racks: input.racks, lines, current };
}

/** The put being worked: the pending item's, else the selected tote's, else none. */
function workedPut(state: SeatState): string | null {
  if (state.step === "put_slot" || state.step === "put_confirm") return state.put.externalServiceRequestId;
  return state.step === "ready" ? state.tote : null;
}

export function putTask(input: ScreenInput, state: SeatState): Task {
  const byPut = new Map<
    string,
    { tote: string | null; bin: string | null; left: number; complete: boolean }
  >();
  for (const r of input.puts) {
    const t = byPut.get(r.putId) ?? { tote: r.tote, bin: r.bin, left: 0, complete: r.state === "complete" };
    t.left += r.left;
    byPut.set(r.putId, t);
  }
  const putId = workedPut(state);
  const items = input.puts.filter((r) => r.putId === putId);
  const current =
    state.step === "put_slot" || state.step === "put_confirm"
      ? {
          sku: state.put.sku,
          quantity: state.quantity,
          left: state.put.left,
          slot: state.step === "put_confirm" ? state.location : null,
          bin: state.put.binId,
          scanRequired: state.put.scanRequired === true,
        }
      : null;
  return {
    kind: "put",
    totes: [...byPut].map(([id, t]) => ({ putId: id, ...t })),
    putId,
    items,
    current,
  };
}

export function auditTask(input: ScreenInput, state: SeatState): Task {
  const audit = input.audit;
  if (!audit) return { kind: "audit", auditId: null, slot: null, slotsLeft: [], lines: [] };
  const slotsLeft = [...new Set(audit.lines.filter((l) => l.open).map((l) => l.location))];
  const counting = state.step === "audit_count" ? state : null;
  const slot = counting?.location ?? slotsLeft[0] ?? null;
  const lines = audit.lines
    .filter((l) => l.open && l.location === slot)
    .map((l) => ({
      ...l,
      counted: counting?.counts[l.auditLineId] ?? 0,
      damaged: counting?.damaged?.[l.auditLineId] ?? 0,
      unscannable: counting?.unscannable?.[l.auditLineId] ?? 0,
    }));
  return { kind: "audit", auditId: audit.auditId, slot, slotsLeft, lines };
}
