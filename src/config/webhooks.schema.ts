import { z } from "zod";
import { webhookId, webhookSecret, webhookTypes, webhookUrl } from "../domain/webhook-endpoint.schema.js";
import { count, flag } from "./config-values.js";

/**
 * The `webhooks` section (docs/webhooks.md): endpoints that receive every notification as a signed
 * Standard Webhooks POST, beside MQTT, and how they are retried. Each key's `describe` text is what
 * docs/configuration.md says of it (`npm run docs:generate`).
 */

/** One endpoint of the config file: what an admin may give, plus its TLS files. */
const configEndpoint = z
  .object({
    id: webhookId,
    url: webhookUrl,
    types: webhookTypes.optional(),
    secret: webhookSecret,
    enabled: z.boolean().default(true),
    caFile: z.string().min(1).optional(),
    certFile: z.string().min(1).optional(),
    keyFile: z.string().min(1).optional(),
  })
  .strict()
  .refine((e) => (e.certFile === undefined) === (e.keyFile === undefined), {
    message: "certFile and keyFile go together (the client certificate for mTLS)",
    path: ["certFile"],
  });
export type ConfigEndpoint = z.infer<typeof configEndpoint>;

/** A list from YAML, or JSON from the environment variable. */
const endpointList = z.preprocess(
  (v) => (typeof v === "string" ? JSON.parse(v) : v),
  z
    .array(configEndpoint)
    .max(32)
    .refine((l) => new Set(l.map((e) => e.id)).size === l.length, "endpoint ids must be unique")
    .optional(),
);

export const webhooksSchema = z
  .object({
    endpoints: endpointList.describe(
      "endpoints: a list of `{ id, url, secret, types?, enabled?, caFile?, certFile?, keyFile? }` (see docs/webhooks.md#endpoints); admins add more over the API and `pps-edge webhooks`",
    ),
    timeoutMs: count(100, 120_000, 15_000).describe(
      "an attempt that has no answer within this fails and is retried",
    ),
    retryMinMs: count(10, 3_600_000, 1000).describe("first retry within this (exponential, full jitter)"),
    retryMaxMs: count(10, 24 * 3_600_000, 3_600_000).describe("the longest wait between two retries"),
    horizonHours: count(1, 30 * 24, 72).describe(
      "an endpoint failing this long at the same notification is disabled (nothing is dropped)",
    ),
    caFile: z
      .string()
      .min(1)
      .optional()
      .describe("PEM CA bundle trusted for every endpoint's HTTPS (absent: the system's CAs)"),
    maxBodyBytes: count(0, 256 * 1024 * 1024, 0).describe(
      "the largest request body the receivers take (`0`: any, every notification in one request); a larger notification is POSTed as ordered parts the receiver puts together (docs/webhooks.md#body-size)",
    ),
    allow: z
      .object({
        loopback: flag.default(false).describe("let endpoint URLs point at this computer (other ports)"),
        linkLocal: flag
          .default(false)
          .describe("let endpoint URLs point at link-local addresses (never at metadata services)"),
        plainHttp: flag.default(false).describe("let endpoint URLs be `http://` (unencrypted)"),
      })
      .strict()
      .default({ loopback: false, linkLocal: false, plainHttp: false }),
  })
  .strict()
  .refine((w) => w.retryMinMs <= w.retryMaxMs, {
    message: "retryMinMs must not exceed retryMaxMs",
    path: ["retryMinMs"],
  })
  // a part carries a header of a few hundred bytes (docs/webhooks.md#body-size)
  .refine((w) => w.maxBodyBytes === 0 || w.maxBodyBytes >= 1024, {
    message: "maxBodyBytes is 0 (any) or at least 1024",
    path: ["maxBodyBytes"],
  })
  .default({
    timeoutMs: 15_000,
    retryMinMs: 1000,
    retryMaxMs: 3_600_000,
    horizonHours: 72,
    maxBodyBytes: 0,
    allow: { loopback: false, linkLocal: false, plainHttp: false },
  });

export type WebhooksConfig = z.infer<typeof webhooksSchema>;
