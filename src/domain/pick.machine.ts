/**
 * Pick request lifecycle (docs/interface.md "States and transitions" → "Pick request"; docs/architecture.md#pick).
 *
 * Decisions where the spec's table is silent:
 * - A single-transaction order: the first pick transaction that is also the last one moves
 *   cancellation_locked straight to complete, emitting order_information for pick_started and then for
 *   complete, so a subscriber sees every state of the table.
 * - An exception (item_missing, physically_damaged, unscannable) is a pick transaction whose actual
 *   container has that state (docs/interface.md "Emission rules" 2), so the first one also moves to pick_started.
 *   When exceptions leave lines short, the caller follows with `lines_short` (→ abandoned).
 * - Cancel and modify: "allowed only before cancellation_locked" is read as created, fulfillable and
 *   not_fulfillable (it never reached a rack). A modify of a not_fulfillable request allocates again
 *   against the stock of now; stock arriving alone does not revive it (docs/decisions.md). A refused
 *   cancel or modify is the caller's cue to emit order_modification with state `failure`
 *   (docs/interface.md "Errors" → asynchronous failure).
 * - pick_before_time (docs/interface.md "Pick request" root attributes): a request not yet started
 *   (created, fulfillable, cancellation_locked) when its deadline passes is `deadline_passed` →
 *   not_fulfillable, its stock and bin released; critical requests are never fed this input.
 * - Modify releases what was reserved and goes back to created, then asks for a new allocation; the
 *   allocation's outcome gives the order_information that follows order_modification (emission rule 1).
 * - A pick before any rack is reached is refused: picking needs a presented rack (docs/architecture.md#the-station-model).
 */
import type { Reservation } from "./allocation.js";
import { findRow, type Moved, type Refusal, refuse, type TransitionRow } from "./machine.js";

export const PICK_STATES = [
  "created",
  "fulfillable",
  "cancellation_locked",
  "pick_started",
  "complete",
  "not_fulfillable",
  "cancelled",
  "abandoned",
] as const;
export type PickState = (typeof PICK_STATES)[number];

export type ServiceRequestStatus = "CREATED" | "PROCESSING" | "PROCESSED" | "FAILED" | "CANCELLED";

/**
 * Statuses a request leaves only when the client changes it (a modify of a not_fulfillable pick), pick
 * and put alike: its retained state may then be cleared; a later change retains it again (mqtt.repo.ts).
 */
export const FINAL_STATUSES: readonly ServiceRequestStatus[] = ["PROCESSED", "FAILED", "CANCELLED"];

/** Spec pick table, "Next state" column. */
export const PICK_STATUS: Readonly<Record<PickState, ServiceRequestStatus>> = {
  created: "CREATED",
  fulfillable: "PROCESSING",
  cancellation_locked: "PROCESSING",
  pick_started: "PROCESSING",
  complete: "PROCESSED",
  not_fulfillable: "FAILED",
  cancelled: "CANCELLED",
  abandoned: "CANCELLED",
};

/**
 * Actual container states of a pick exception (docs/interface.md: "Actual container states seen in pick
 * actuals"). `item_missing`: fewer items in the slot than stock said; `missing`: the slot is empty.
 */
export const PICK_EXCEPTION_REASONS = [
  "item_missing",
  "physically_damaged",
  "unscannable",
  "missing",
] as const;
export type PickExceptionReason = (typeof PICK_EXCEPTION_REASONS)[number];

export type PickInput =
  | { type: "allocated"; reservations: readonly Reservation[] }
  | { type: "allocation_failed"; lineId: string }
  | { type: "rack_reached" }
  | {
      type: "pick_transaction";
      lineId: string;
      location: string;
      itemId: string;
      quantity: number;
      /** after this transaction every line is complete (`summarizeLines` says `complete`) */
      last: boolean;
    }
  | {
      type: "exception";
      lineId: string;
      quantity: number;
      reason: PickExceptionReason;
      /** the slot it happened at (its container's `location`) */
      location?: string;
    }
  | { type: "lines_short" }
  /** pick_before_time passed before the first pick transaction (not for critical requests) */
  | { type: "deadline_passed" }
  | { type: "cancel"; transaction: string }
  | { type: "modify"; transaction: string };
export type PickInputType = PickInput["type"];

export const PICK_INPUTS: readonly PickInputType[] = [
  "allocated",
  "allocation_failed",
  "rack_reached",
  "pick_transaction",
  "exception",
  "lines_short",
  "deadline_passed",
  "cancel",
  "modify",
];

export type PickNotice =
  | { type: "order_information"; state: PickState }
  | { type: "order_modification"; state: "success" };

export type PickEffect =
  | { kind: "notify"; type: "order_information"; state: PickState }
  | { kind: "notify"; type: "order_modification"; state: "success"; transaction: string }
  /** run allocation (allocation.ts) and feed `allocated` or `allocation_failed` */
  | { kind: "allocate" }
  | { kind: "reserve"; reservations: Reservation[] }
  /** release every reservation the request still holds */
  | { kind: "release" }
  /** stock and reservation decrease at the location */
  | { kind: "consume"; lineId: string; location: string; itemId: string; quantity: number }
  /** add an actuals container to the line */
  | {
      kind: "record_actual";
      lineId: string;
      state: "complete" | PickExceptionReason;
      quantity: number;
      location?: string;
    }
  /** the request reached a final state in its bin: emit bin_complete if every request there is done */
  | { kind: "check_bin" };

export interface PickRow extends TransitionRow<PickState, PickInputType> {
  notify: readonly PickNotice[];
}

const info = (state: PickState): PickNotice => ({ type: "order_information", state });
const modified: PickNotice = { type: "order_modification", state: "success" };

/** Every move the machine accepts; any other (state, input) pair is refused. */
export const PICK_TABLE: readonly PickRow[] = [
  { from: "created", input: "allocated", to: "fulfillable", notify: [info("fulfillable")] },
  { from: "created", input: "allocation_failed", to: "not_fulfillable", notify: [info("not_fulfillable")] },
  {
    from: "fulfillable",
    input: "rack_reached",
    to: "cancellation_locked",
    notify: [info("cancellation_locked")],
  },
  {
    from: "cancellation_locked",
    input: "pick_transaction",
    when: "more",
    to: "pick_started",
    notify: [info("pick_started")],
  },
  {
    from: "cancellation_locked",
    input: "pick_transaction",
    when: "last",
    to: "complete",
    notify: [info("pick_started"), info("complete")],
  },
  { from: "cancellation_locked", input: "exception", to: "pick_started", notify: [info("pick_started")] },
  {
    from: "pick_started",
    input: "pick_transaction",
    when: "more",
    to: "pick_started",
    notify: [info("pick_started")],
  },
  {
    from: "pick_started",
    input: "pick_transaction",
    when: "last",
    to: "complete",
    notify: [info("complete")],
  },
  { from: "pick_started", input: "exception", to: "pick_started", notify: [info("pick_started")] },
  { from: "pick_started", input: "lines_short", to: "abandoned", notify: [info("abandoned")] },
  { from: "created", input: "cancel", to: "cancelled", notify: [modified, info("cancelled")] },
  { from: "fulfillable", input: "cancel", to: "cancelled", notify: [modified, info("cancelled")] },
  { from: "not_fulfillable", input: "cancel", to: "cancelled", notify: [modified, info("cancelled")] },
  { from: "created", input: "modify", to: "created", notify: [modified] },
  { from: "fulfillable", input: "modify", to: "created", notify: [modified] },
  { from: "not_fulfillable", input: "modify", to: "created", notify: [modified] },
  ...(["created", "fulfillable", "cancellation_locked"] as const).map(
    (from): PickRow => ({
      from,
      input: "deadline_passed",
      to: "not_fulfillable",
      notify: [info("not_fulfillable")],
    }),
  ),
];

/** States that hold reservations: leaving them releases the stock. */
const HOLDS_STOCK: readonly PickState[] = ["fulfillable", "cancellation_locked"];

export type PickStep = Moved<PickState, PickEffect> | Refusal<PickState, PickInputType>;

/** Row "(none) → create request → created": the response returns the object; allocation follows. */
export function createPick(): Moved<PickState, PickEffect> {
  return { state: "created", effects: [{ kind: "allocate" }] };
}

export function stepPick(state: PickState, input: PickInput): PickStep {
  const when = input.type === "pick_transaction" ? (input.last ? "last" : "more") : undefined;
  const row = findRow(PICK_TABLE, state, input.type, when);
  if (!row) return refuse(PICK_TABLE, state, input.type, when);
  const transaction = input.type === "cancel" || input.type === "modify" ? input.transaction : "";
  const notices: PickEffect[] = row.notify.map((n) =>
    n.type === "order_modification"
      ? { kind: "notify", type: n.type, state: n.state, transaction }
      : { kind: "notify", type: n.type, state: n.state },
  );
  return { state: row.to, effects: effectsOf(state, input, notices) };
}

/** Stock and document effects come before the notifications that report them. */
function effectsOf(from: PickState, input: PickInput, notices: PickEffect[]): PickEffect[] {
  switch (input.type) {
    case "allocated":
      return [{ kind: "reserve", reservations: [...input.reservations] }, ...notices];
    case "pick_transaction": {
      const { lineId, location, itemId, quantity } = input;
      return [
        { kind: "consume", lineId, location, itemId, quantity },
        { kind: "record_actual", lineId, state: "complete", quantity, location },
        // the last pick also clears any reservation left over, e.g. when picked from another slot
        ...(input.last ? [{ kind: "release" } as const] : []),
        ...notices,
        ...(input.last ? [{ kind: "check_bin" } as const] : []),
      ];
    }
    case "exception":
      return [
        {
          kind: "record_actual",
          lineId: input.lineId,
          state: input.reason,
          quantity: input.quantity,
          ...(input.location === undefined ? {} : { location: input.location }),
        },
        ...notices,
      ];
    case "lines_short":
      return [{ kind: "release" }, ...notices, { kind: "check_bin" }];
    case "cancel":
      return [...(HOLDS_STOCK.includes(from) ? [{ kind: "release" } as const] : []), ...notices];
    case "modify":
      return [
        ...(HOLDS_STOCK.includes(from) ? [{ kind: "release" } as const] : []),
        ...notices,
        { kind: "allocate" },
      ];
    case "deadline_passed":
      return [
        ...(HOLDS_STOCK.includes(from) ? [{ kind: "release" } as const] : []),
        ...notices,
        { kind: "check_bin" },
      ];
    case "allocation_failed":
    case "rack_reached":
      return notices;
  }
}
