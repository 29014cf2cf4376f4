/**
 * The station's truth: the drizzle schema, one file per area under schema/. Timestamps are epoch
 * milliseconds (integers) so that ordering and expiry checks are cheap; they are formatted as ISO 8601
 * only at the edges (docs/architecture.md#conventions).
 */

export * from "./tables/audits.table.js";
export * from "./tables/auth.table.js";
export * from "./tables/masterdata.table.js";
export * from "./tables/outbox.table.js";
export * from "./tables/requests.table.js";
export * from "./tables/screen.table.js";
export * from "./tables/seat-control.table.js";
export * from "./tables/shift.table.js";
export * from "./tables/station.table.js";
export * from "./tables/training.table.js";
export * from "./tables/webhooks.table.js";
