import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../domain/password-policy.js";
import { flag } from "./config-values.js";

/**
 * The config of what guards the agent's doors on the LAN: server certificates (HTTPS for the station
 * API, the embedded broker's TLS listener) and the `/metrics` scrape credential (docs/security.md).
 */

/**
 * A certificate and its key, PEM files, both or neither: the one shape of the agent's server
 * certificates (`http.tls`, `mqtt.embeddedTls`), so they read alike in the config and the docs.
 */
export const certificateFiles = {
  certFile: z.string().min(1).optional(),
  keyFile: z.string().min(1).optional(),
};

/** Refinement of a section with `certificateFiles`: a certificate without its key is no use, and the reverse. */
export function bothOrNeither(t: { certFile?: string | undefined; keyFile?: string | undefined }): boolean {
  return (t.certFile === undefined) === (t.keyFile === undefined);
}

export function bothOrNeitherMessage(section: string): { message: string; path: string[] } {
  return {
    message: `${section}.certFile and ${section}.keyFile go together: set both or neither`,
    path: ["keyFile"],
  };
}

/**
 * `mqtt.embeddedTls`: with a certificate and key, the embedded broker also listens for `mqtts://` on
 * `host:port`, with the same credentials and ACL as the plain listener (docs/mqtt.md#tls-listener). The
 * plain listener stays: the agent's own client uses it over loopback. To offer the LAN TLS only, keep
 * `mqtt.embeddedHost` on loopback and set `host` to the LAN address.
 */
export const embeddedTlsSchema = z
  .object({
    host: z
      .string()
      .min(1)
      .optional()
      .describe(
        "listen address of the TLS listener; absent: `mqtt.embeddedHost`. Keep `mqtt.embeddedHost` on `127.0.0.1` and set this to the LAN address to offer the LAN TLS only",
      ),
    /** 0 picks a free port (tests). */
    port: z.coerce.number().int().min(0).max(65535).default(8883).describe("its port (`0`: any free port)"),
    certFile: certificateFiles.certFile.describe(
      "PEM certificate: the embedded broker also listens for `mqtts://`, with the same credentials and ACL (see docs/security.md#mqtt-over-tls)",
    ),
    keyFile: certificateFiles.keyFile.describe("PEM key of that certificate; set both or neither"),
  })
  .strict()
  .refine(bothOrNeither, bothOrNeitherMessage("mqtt.embeddedTls"))
  .default({ port: 8883 });

/**
 * `/metrics` is the station's operational data: a scrape credential guards it unless `open` says the
 * LAN may read it (warned at every start). `token` absent: one is generated on the first start, stored
 * hashed, and written to `initial-credentials.json` as `metricsToken`.
 */
export const metricsSchema = z
  .object({
    token: z
      .string()
      .min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`)
      .max(MAX_PASSWORD_LENGTH, `at most ${MAX_PASSWORD_LENGTH} characters`)
      .optional()
      .meta({
        description:
          "the scrape credential of `/metrics`, sent as `Authorization: Bearer <token>`; generated on the first start into `data/initial-credentials.json` (`metricsToken`) when not set (see docs/security.md#metrics-credential)",
        shownDefault: "generated",
      }),
    open: flag
      .default(false)
      .describe(
        "`true` serves `/metrics` without a credential to anyone who reaches the HTTP port (warned at every start)",
      ),
  })
  .strict()
  .default({ open: false });
