import { z } from "zod";

/**
 * The agent's configuration. Every leaf can be overridden by an environment variable named
 * `PPS_EDGE_` + the key path in upper snake case (`http.port` → `PPS_EDGE_HTTP_PORT`,
 * `dataDir` → `PPS_EDGE_DATA_DIR`); see config.env.ts. DESIGN.md §5 "Config".
 */
const logLevel = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]);

const timeZone = z.string().refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  },
  { message: "not a known IANA time zone" },
);

export const configSchema = z
  .object({
    site: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, '-' or '_' only (it is an MQTT topic level)")
      .default("dc1"),
    ppsId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, '-' or '_' only (it is an MQTT topic level)")
      .default("1"),
    /** Zone used to read spec timestamps that carry no offset (DESIGN.md §9). */
    timeZone: timeZone.default("UTC"),
    dataDir: z.string().min(1).default("./data"),
    http: z
      .object({
        host: z.string().min(1).default("127.0.0.1"),
        port: z.coerce.number().int().min(0).max(65535).default(8080),
        /** Largest request body accepted, in bytes (413 above it). */
        bodyLimitBytes: z.coerce
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(1024 * 1024),
      })
      .strict()
      .default({ host: "127.0.0.1", port: 8080, bodyLimitBytes: 1024 * 1024 }),
    /** The Basic client credential of the deployment (spec: Authentication). */
    clientId: z.string().min(1).max(128).default("pps-edge"),
    clientSecret: z.string().min(12, "at least 12 characters").max(256).optional(),
    /** The first API user, created at start when absent. */
    adminUser: z.string().min(1).max(128).default("admin"),
    adminPassword: z.string().min(12, "at least 12 characters").max(256).optional(),
    tokenTtlSeconds: z.coerce
      .number()
      .int()
      .min(10)
      .max(7 * 24 * 3600)
      .default(3600),
    refreshTokenTtlSeconds: z.coerce
      .number()
      .int()
      .min(60)
      .max(90 * 24 * 3600)
      .default(14 * 24 * 3600),
    db: z
      .object({
        /** FULL: an acknowledged change survives power loss (DESIGN.md §6). */
        synchronous: z.enum(["FULL", "NORMAL", "EXTRA"]).default("FULL"),
        busyTimeoutMs: z.coerce.number().int().min(0).max(60_000).default(5000),
      })
      .strict()
      .default({ synchronous: "FULL", busyTimeoutMs: 5000 }),
    log: z
      .object({ level: logLevel.default("info") })
      .strict()
      .default({ level: "info" }),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
