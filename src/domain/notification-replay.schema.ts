import { z } from "zod";

/**
 * `request/replay_notifications` (docs/mqtt.md#replaying-notifications): the notifications after
 * sequence number `after`, at most `limit` of them. Strict, like the other request bodies: a misspelt
 * member is an error, not a silently ignored option.
 */
export const REPLAY_DEFAULT_LIMIT = 100;
export const REPLAY_MAX_LIMIT = 500;
/** Far above any set's count (a 64 MiB notification in 1 KiB parts has some 90,000). */
export const REPLAY_MAX_PART = 10_000_000;

export const replayRequestSchema = z
  .object({
    after: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    limit: z.number().int().min(1).max(REPLAY_MAX_LIMIT).default(REPLAY_DEFAULT_LIMIT),
    // the consumer takes a notification too large for an answer in parts: which one of the first
    // notification after `after` (docs/mqtt.md#large-notifications-by-replay)
    part: z.number().int().min(0).max(REPLAY_MAX_PART).optional(),
  })
  .strict();

export type ReplayRequest = z.output<typeof replayRequestSchema>;
