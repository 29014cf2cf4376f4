/**
 * The pick aggregate's door (spec: Pick request; docs/architecture.md#pick). Every use case is a function of its
 * dependencies, its input and the caller's transaction (services/unit-of-work/unit-of-work.ts):
 * - the service-request endpoints: create (with allocation), cancel, modify;
 * - the operator at the station: a pick transaction, a pick exception;
 * - station-driven transitions: order bins given in work order (mode switch, a freed bin, held work
 *   released), requests locked when a rack with their stock is presented, print_ready, an emptied bin,
 *   requests not started by their pick_before_time ending not_fulfillable;
 * - the notifications it emits: order_information, order_modification, bin_complete, pack_information.
 * Callers import this module only; the files beside it are its private parts.
 */

export { type BinFullOutcome, closeBinFull } from "./pick-bin-full.js";
export { emptyBin, labelData, printReady } from "./pick-bins.js";
export { boxLabelData, boxLabelled } from "./pick-box-label.js";
export { captureKindsOf } from "./pick-capture.js";
export { cancelPick, modifyPick } from "./pick-change.js";
export { createPick, planPick } from "./pick-create.js";
export { expireOverdue } from "./pick-deadline.js";
export type { PickDeps } from "./pick-deps.js";
export { assignBins, lockAtPresentedRacks } from "./pick-effects.js";
export { recordPick, recordPickException } from "./picking.js";
