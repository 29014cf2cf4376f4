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

/** A list from YAML, or a comma-separated string from an environment variable. */
const idList = (fallback: string[]) =>
  z.preprocess(
    (v) =>
      typeof v === "string"
        ? v
            .split(",")
            .map((s) => s.trim())
            .filter((s) => s !== "")
        : v,
    z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "letters, digits, '-' or '_' (1-32)"))
      .min(1)
      .max(256)
      .refine((l) => new Set(l).size === l.length, "ids must be unique")
      .default(fallback),
  );

const DEFAULT_BINS = ["1", "2", "3", "4", "5", "6", "7", "8"];

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
    station: z
      .object({
        /** Seats of the station (DESIGN.md §3). */
        seats: idList(["front", "back"]),
        /** Order bin ids (`ppsBinId`). */
        bins: idList(DEFAULT_BINS),
        /** The mode a new station database starts in. */
        initialMode: z.enum(["pick", "put", "audit"]).default("pick"),
        /** Spec: staging needs a logged-in seat "unless the configuration allows staging with logout". */
        stagingWithLogout: z
          .preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean())
          .default(false),
      })
      .strict()
      .default({
        seats: ["front", "back"],
        bins: DEFAULT_BINS,
        initialMode: "pick",
        stagingWithLogout: false,
      }),
    outbox: z
      .object({
        /** Changes are refused (503 outbox_full) while this many notifications wait undelivered. */
        maxUndelivered: z.coerce.number().int().min(100).max(100_000_000).default(1_000_000),
      })
      .strict()
      .default({ maxUndelivered: 1_000_000 }),
    log: z
      .object({ level: logLevel.default("info") })
      .strict()
      .default({ level: "info" }),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
