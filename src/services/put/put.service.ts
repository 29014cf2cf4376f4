/**
 * The put aggregate's door (spec: Put request, Stage put; docs/architecture.md#put). Every use case is a function
 * of its dependencies, its input and the caller's transaction (services/unit-of-work/unit-of-work.ts):
 * - the service-request endpoints: create, cancel, modify;
 * - staging: the stage call, its evaluation (staged or stage_failure), put-back staging at the station,
 *   its withdrawal (stage_cancelled: the bin emptied, the tote released);
 * - the operator at the station: a put transaction, a put exception, the tote's release;
 * - the notification it emits: put_information.
 * Callers import this module only; the files beside it are its private parts.
 */
export { cancelPut, createPut, modifyPut } from "./put-change.js";
export type { PutDeps } from "./put-deps.js";
export { resolveExpectations, type StoredExpectations } from "./put-expectations.js";
export {
  evaluateStaging,
  putBackStage,
  requestStaging,
  withdrawAllStaging,
  withdrawStagingInBin,
} from "./put-staging.js";
export { recordPut, recordPutException, releasePut } from "./putting.js";
