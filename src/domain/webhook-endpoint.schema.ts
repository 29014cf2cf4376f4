/**
 * A webhook endpoint as an admin or the config file gives it (docs/webhooks.md#endpoints), and a replay
 * range. One shape for the config file, the admin API and the command line, so they refuse the same
 * things with the same words.
 */
import { z } from "zod";
import { NOTIFICATION_TYPES } from "./notification.js";

export const webhookId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,32}$/, "letters, digits, '-' or '_' (1-32)")
  .describe("the endpoint's name: letters, digits, '-' or '_' (1-32); a metrics label");

/**
 * Standard Webhooks secrets: `whsec_` and the base64 of 24 to 64 random bytes (standardwebhooks.com,
 * "Signature scheme": "secrets SHOULD be between 24 bytes and 64 bytes").
 */
export const webhookSecret = z
  .string()
  .regex(
    /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/,
    "`whsec_` and the base64 of 24 to 64 random bytes (Standard Webhooks)",
  )
  .describe("signing secret, `whsec_` + base64 of 24-64 random bytes");

export const webhookUrl = z.string().min(1).max(2048).describe("where notifications are POSTed, https://");

/** The notification types an endpoint wants; absent (or null): all of them. */
export const webhookTypes = z
  .array(z.enum(NOTIFICATION_TYPES))
  .min(1)
  .refine((l) => new Set(l).size === l.length, "each type once")
  .describe("notification types it wants; absent: every type");

/** POST /station/webhooks and `pps-edge webhooks add`: a secret left out is generated and shown once. */
export const webhookCreateSchema = z
  .object({
    id: webhookId,
    url: webhookUrl,
    types: webhookTypes.nullable().optional(),
    secret: webhookSecret.optional(),
    enabled: z.boolean().optional().describe("default true"),
  })
  .strict();
export type WebhookCreate = z.infer<typeof webhookCreateSchema>;

/** PUT /station/webhooks/{id}: what is named changes; `types: null` means every type again. */
export const webhookPatchSchema = z
  .object({
    url: webhookUrl.optional(),
    types: webhookTypes.nullable().optional(),
    secret: webhookSecret.optional(),
  })
  .strict()
  .refine((p) => p.url !== undefined || p.types !== undefined || p.secret !== undefined, {
    message: "name at least one of url, types, secret",
    path: [],
  });
export type WebhookPatch = z.infer<typeof webhookPatchSchema>;

/** POST /station/webhooks/{id}/replay: send seq `from`..`to` (inclusive) again, in order. */
export const webhookReplaySchema = z
  .object({
    from: z.number().int().min(1).describe("first seq to send again"),
    to: z.number().int().min(1).describe("last seq to send again (inclusive)"),
  })
  .strict()
  .refine((r) => r.to >= r.from, { message: "to must not be below from", path: ["to"] });
export type WebhookReplay = z.infer<typeof webhookReplaySchema>;
