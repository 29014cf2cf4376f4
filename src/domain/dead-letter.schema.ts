import { z } from "zod";

/**
 * Which dead letters to send again (docs/mqtt.md#dead-letters): the body of
 * POST /station/outbox/dead-letters/replay and of `request/replay_dead_letters`. No `seqs`, or an empty
 * list: all of them.
 */
export const deadLetterReplaySchema = z
  .object({
    seqs: z
      .array(z.number().int().min(1))
      .max(1000)
      .optional()
      .describe("the seq of each dead letter to send again; left out or empty: all"),
  })
  .strict();

export type DeadLetterReplay = z.infer<typeof deadLetterReplaySchema>;
