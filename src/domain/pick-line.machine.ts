/**
 * Pick line lifecycle. The spec gives the pick request's states and says pick lines "may also carry
 * `undefined`" (docs/interface.md "States and transitions" → "Pick request"); line transitions are not shown. This
 * machine keeps each line's quantities so that the caller knows when the request's pick transaction
 * was the last one (`summarizeLines`), which the request machine needs as its `last` flag.
 *
 * Decisions:
 * - `undefined` is a line's state until its request's allocation settles (and again after a modify,
 *   which re-allocates). Allocation is all-or-nothing (allocation.ts), so the caller feeds
 *   `allocated` or `allocation_failed` to every line of the request. A not_fulfillable line may be
 *   cancelled or reset (its request was cancelled or modified); `expire` (pick_before_time passed
 *   before any pick) makes an unpicked line not_fulfillable.
 * - A line stays fulfillable while its request is cancellation_locked and moves to pick_started on its
 *   own first pick or exception.
 * - An exception (missing, damaged, unscannable) settles its quantity for good: the line will end
 *   `abandoned` (short) instead of `complete`, mirroring the request's "partially complete → abandoned".
 * - A pick or exception for more than the outstanding quantity, or not a positive integer, is refused.
 * - Status per state mirrors the request's mapping (PICK_STATUS).
 */
import { findRow, type Moved, type Refusal, refusal, refuse, type TransitionRow } from "./machine.js";
import type { ServiceRequestStatus } from "./pick.machine.js";

export const PICK_LINE_STATES = [
  "undefined",
  "fulfillable",
  "not_fulfillable",
  "pick_started",
  "complete",
  "abandoned",
  "cancelled",
] as const;
export type PickLineState = (typeof PICK_LINE_STATES)[number];

export const PICK_LINE_STATUS: Readonly<Record<PickLineState, ServiceRequestStatus>> = {
  undefined: "CREATED",
  fulfillable: "PROCESSING",
  not_fulfillable: "FAILED",
  pick_started: "PROCESSING",
  complete: "PROCESSED",
  abandoned: "CANCELLED",
  cancelled: "CANCELLED",
};

export interface PickLine {
  state: PickLineState;
  /** productQuantity of the line's expectation */
  expected: number;
  /** eaches picked (actuals containers with state complete) */
  picked: number;
  /** eaches settled by an exception */
  short: number;
}

export type PickLineInput =
  | { type: "allocated" }
  | { type: "allocation_failed" }
  /** the request was modified: the line waits for a new allocation */
  | { type: "reset" }
  | { type: "pick"; quantity: number }
  | { type: "exception"; quantity: number }
  /** the request is abandoned: what is outstanding will not be picked */
  | { type: "abandon" }
  /** the request's pick_before_time passed before its first pick */
  | { type: "expire" }
  | { type: "cancel" };
export type PickLineInputType = PickLineInput["type"];

export const PICK_LINE_INPUTS: readonly PickLineInputType[] = [
  "allocated",
  "allocation_failed",
  "reset",
  "pick",
  "exception",
  "abandon",
  "expire",
  "cancel",
];

/**
 * `when` of pick and exception rows, read after the quantity is applied: `open` (quantity outstanding),
 * `done` (all picked), `short` (nothing outstanding, some settled by exceptions).
 */
export type PickLineWhen = "open" | "done" | "short";

export type PickLineRow = TransitionRow<PickLineState, PickLineInputType>;

export const PICK_LINE_TABLE: readonly PickLineRow[] = [
  { from: "undefined", input: "allocated", to: "fulfillable" },
  { from: "undefined", input: "allocation_failed", to: "not_fulfillable" },
  { from: "undefined", input: "reset", to: "undefined" },
  { from: "fulfillable", input: "reset", to: "undefined" },
  { from: "undefined", input: "cancel", to: "cancelled" },
  { from: "fulfillable", input: "cancel", to: "cancelled" },
  { from: "not_fulfillable", input: "cancel", to: "cancelled" },
  { from: "not_fulfillable", input: "reset", to: "undefined" },
  { from: "undefined", input: "expire", to: "not_fulfillable" },
  { from: "fulfillable", input: "expire", to: "not_fulfillable" },
  { from: "fulfillable", input: "pick", when: "open", to: "pick_started" },
  { from: "fulfillable", input: "pick", when: "done", to: "complete" },
  { from: "fulfillable", input: "exception", when: "open", to: "pick_started" },
  { from: "fulfillable", input: "exception", when: "short", to: "abandoned" },
  { from: "pick_started", input: "pick", when: "open", to: "pick_started" },
  { from: "pick_started", input: "pick", when: "done", to: "complete" },
  { from: "pick_started", input: "pick", when: "short", to: "abandoned" },
  { from: "pick_started", input: "exception", when: "open", to: "pick_started" },
  { from: "pick_started", input: "exception", when: "short", to: "abandoned" },
  { from: "fulfillable", input: "abandon", to: "abandoned" },
  { from: "pick_started", input: "abandon", to: "abandoned" },
];

/** Lines carry no effects of their own: the request machine emits the notifications. */
export type PickLineStep = Moved<PickLine, never> | Refusal<PickLineState, PickLineInputType>;

export function createPickLine(expected: number): PickLine {
  return { state: "undefined", expected, picked: 0, short: 0 };
}

export function outstanding(line: PickLine): number {
  return line.expected - line.picked - line.short;
}

export function stepPickLine(line: PickLine, input: PickLineInput): PickLineStep {
  if (input.type !== "pick" && input.type !== "exception") {
    const row = findRow(PICK_LINE_TABLE, line.state, input.type);
    if (!row) return refuse(PICK_LINE_TABLE, line.state, input.type);
    return { state: { ...line, state: row.to }, effects: [] };
  }
  if (!findRow(PICK_LINE_TABLE, line.state, input.type, "open")) {
    return refuse(PICK_LINE_TABLE, line.state, input.type);
  }
  const left = outstanding(line);
  if (!Number.isInteger(input.quantity) || input.quantity <= 0 || input.quantity > left) {
    return refusal(
      line.state,
      input.type,
      `quantity ${input.quantity} is not between 1 and ${left} outstanding`,
    );
  }
  const next: PickLine =
    input.type === "pick"
      ? { ...line, picked: line.picked + input.quantity }
      : { ...line, short: line.short + input.quantity };
  const when: PickLineWhen = outstanding(next) > 0 ? "open" : next.short > 0 ? "short" : "done";
  const row = findRow(PICK_LINE_TABLE, line.state, input.type, when);
  if (!row) return refuse(PICK_LINE_TABLE, line.state, input.type, when);
  return { state: { ...next, state: row.to }, effects: [] };
}

/**
 * Where a request's lines stand after a transaction: `complete` when every line is complete (feed the
 * request `pick_transaction` with `last: true`), `short` when nothing is left to pick but some line is
 * short (feed `lines_short`), else `open`. A request without lines is `open`: there is nothing to finish.
 */
export function summarizeLines(lines: readonly PickLine[]): "open" | "complete" | "short" {
  if (lines.length === 0) return "open";
  const settled: readonly PickLineState[] = ["complete", "abandoned", "cancelled", "not_fulfillable"];
  if (lines.some((l) => !settled.includes(l.state))) return "open";
  return lines.every((l) => l.state === "complete") ? "complete" : "short";
}
