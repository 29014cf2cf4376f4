/**
 * Put request lifecycle (docs/interface.md "States and transitions" → "Put request", "Events" rules 3, 4, 5, 8;
 * docs/architecture.md#put).
 *
 * Decisions where the spec is silent:
 * - Status: the table gives CREATED for created and PROCESSED for complete. Staging and staged are work
 *   in progress (PROCESSING); released follows a finished put (PROCESSED); cancelled is CANCELLED.
 * - A failed staging (state `stage_failure`, with `alert_data`) returns the request to created, so it
 *   can be staged again once the station is fixed, and modified or cancelled meanwhile.
 * - A staging cancelled at the station (notification state `stage_cancelled`) returns to created too; it
 *   is accepted while staging is requested, or once staged as long as no put transaction is recorded
 *   (after that the tote holds a partly put expectation and must be finished instead).
 * - An exception is a put transaction (its actual container has an exception state): it emits
 *   put_information `put_transaction` (rule 4), and when it settles the last expected quantity the put
 *   is complete, which emits put_information `complete` after it.
 * - Reaching released emits nothing (rule 8: not shown); the retained state topic shows it.
 * - Put back staging (created → staged) emits nothing: the table names no notification and API
 *   controlled staging (rule 5) is not involved.
 */
import { findRow, type Moved, type Refusal, refuse, type TransitionRow } from "./machine.js";
import type { ServiceRequestStatus } from "./pick.machine.js";

export const PUT_STATES = [
  "created",
  "stage_requested",
  "staged",
  "complete",
  "released",
  "cancelled",
] as const;
export type PutState = (typeof PUT_STATES)[number];

export const PUT_STATUS: Readonly<Record<PutState, ServiceRequestStatus>> = {
  created: "CREATED",
  stage_requested: "PROCESSING",
  staged: "PROCESSING",
  complete: "PROCESSED",
  released: "PROCESSED",
  cancelled: "CANCELLED",
};

/** Put actual container states other than `complete` (docs/interface.md "Put container states"). */
export const PUT_EXCEPTION_STATES = [
  "back_unscannable",
  "back_physically_damaged",
  "back_oversized_entities",
  "back_excess_entities",
  "back_warehouse_full",
  "front_physically_damaged",
  "front_missing",
  "front_unscannable",
  "front_excess_entities",
  "front_warehouse_full",
  "front_space_unavailable",
] as const;
export type PutExceptionState = (typeof PUT_EXCEPTION_STATES)[number];

/** `{code, description}` of put_information `attributes.alert_data` (rule 5), e.g. `pps_mode_incorrect`. */
export interface StageAlert {
  code: string;
  description: string;
}

export type PutInput =
  | { type: "stage_requested" }
  | { type: "stage_succeeded" }
  | { type: "stage_failed"; alerts: readonly StageAlert[] }
  | { type: "stage_cancelled"; putsRecorded: boolean }
  | { type: "put_back_staged" }
  | {
      type: "put_transaction";
      productSku: string;
      location: string;
      itemId: string;
      quantity: number;
      finished: boolean;
    }
  | {
      type: "put_exception";
      productSku: string;
      state: PutExceptionState;
      quantity: number;
      finished: boolean;
    }
  | { type: "release" }
  | { type: "cancel" }
  | { type: "modify" };
export type PutInputType = PutInput["type"];

export const PUT_INPUTS: readonly PutInputType[] = [
  "stage_requested",
  "stage_succeeded",
  "stage_failed",
  "stage_cancelled",
  "put_back_staged",
  "put_transaction",
  "put_exception",
  "release",
  "cancel",
  "modify",
];

/** States a put_information notification may carry (rules 3, 4, 5). */
export type PutNoticeState = "staged" | "stage_failure" | "stage_cancelled" | "put_transaction" | "complete";

export type PutEffect =
  | { kind: "notify"; type: "put_information"; state: PutNoticeState; alerts?: StageAlert[] }
  /** check the staging conditions (mode, login, empty bin) and feed stage_succeeded or stage_failed */
  | { kind: "check_staging" }
  /** stock increases at the location */
  | { kind: "add"; location: string; itemId: string; quantity: number }
  | {
      kind: "record_actual";
      productSku: string;
      state: "complete" | PutExceptionState;
      quantity: number;
      location?: string;
    }
  /** the bin the request was staged to is free again */
  | { kind: "free_bin" };

export interface PutRow extends TransitionRow<PutState, PutInputType> {
  notify: readonly PutNoticeState[];
}

export const PUT_TABLE: readonly PutRow[] = [
  { from: "created", input: "stage_requested", to: "stage_requested", notify: [] },
  { from: "stage_requested", input: "stage_succeeded", to: "staged", notify: ["staged"] },
  { from: "stage_requested", input: "stage_failed", to: "created", notify: ["stage_failure"] },
  { from: "stage_requested", input: "stage_cancelled", to: "created", notify: ["stage_cancelled"] },
  { from: "staged", input: "stage_cancelled", when: "untouched", to: "created", notify: ["stage_cancelled"] },
  { from: "created", input: "put_back_staged", to: "staged", notify: [] },
  { from: "staged", input: "put_transaction", when: "more", to: "staged", notify: [] },
  { from: "staged", input: "put_transaction", when: "finished", to: "complete", notify: ["complete"] },
  { from: "staged", input: "put_exception", when: "more", to: "staged", notify: ["put_transaction"] },
  {
    from: "staged",
    input: "put_exception",
    when: "finished",
    to: "complete",
    notify: ["put_transaction", "complete"],
  },
  { from: "complete", input: "release", to: "released", notify: [] },
  { from: "created", input: "cancel", to: "cancelled", notify: [] },
  { from: "created", input: "modify", to: "created", notify: [] },
];

export type PutStep = Moved<PutState, PutEffect> | Refusal<PutState, PutInputType>;

/** Row "(none) → create request → created (status CREATED)": no notification. */
export function createPut(): Moved<PutState, PutEffect> {
  return { state: "created", effects: [] };
}

function whenOf(input: PutInput): string | undefined {
  switch (input.type) {
    case "put_transaction":
    case "put_exception":
      return input.finished ? "finished" : "more";
    case "stage_cancelled":
      return input.putsRecorded ? "touched" : "untouched";
    default:
      return undefined;
  }
}

export function stepPut(state: PutState, input: PutInput): PutStep {
  const when = whenOf(input);
  const row = findRow(PUT_TABLE, state, input.type, when);
  if (!row) return refuse(PUT_TABLE, state, input.type, when);
  const notices: PutEffect[] = row.notify.map((n) =>
    n === "stage_failure" && input.type === "stage_failed"
      ? { kind: "notify", type: "put_information", state: n, alerts: [...input.alerts] }
      : { kind: "notify", type: "put_information", state: n },
  );
  return { state: row.to, effects: effectsOf(input, notices) };
}

function effectsOf(input: PutInput, notices: PutEffect[]): PutEffect[] {
  switch (input.type) {
    case "stage_requested":
      return [{ kind: "check_staging" }];
    case "stage_failed":
    case "stage_cancelled":
    case "release":
      return [...notices, { kind: "free_bin" }];
    case "put_transaction": {
      const { productSku, location, itemId, quantity } = input;
      return [
        { kind: "add", location, itemId, quantity },
        { kind: "record_actual", productSku, state: "complete", quantity, location },
        ...notices,
      ];
    }
    case "put_exception":
      return [
        { kind: "record_actual", productSku: input.productSku, state: input.state, quantity: input.quantity },
        ...notices,
      ];
    case "stage_succeeded":
    case "put_back_staged":
    case "cancel":
    case "modify":
      return notices;
  }
}
