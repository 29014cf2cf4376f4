/**
 * The station's truth: the drizzle schema, one file per area under schema/. Timestamps are epoch
 * milliseconds (integers) so that ordering and expiry checks are cheap; they are formatted as ISO 8601
 * only at the edges (docs/architecture.md#conventions).
 */

export * from "./schema/audits.schema.js";
export * from "./schema/auth.schema.js";
export * from "./schema/masterdata.schema.js";
export * from "./schema/outbox.schema.js";
export * from "./schema/requests.schema.js";
export * from "./schema/screen.schema.js";
export * from "./schema/station.schema.js";
