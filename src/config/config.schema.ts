import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../domain/password-policy.js";
import { CARRIER_LABEL_DEFAULTS, carrierLabelsSchema } from "./carrier-labels.schema.js";
import { count, flag } from "./config-values.js";
import { httpSchema } from "./http.schema.js";
import { mqttSchema } from "./mqtt.schema.js";
import { metricsSchema } from "./security.schema.js";
import { stationSchema } from "./station.schema.js";
import { webhooksSchema } from "./webhooks.schema.js";
import { pickSchema, searchSchema } from "./work.schema.js";

export { DEFAULT_BINS, DEFAULT_SEATS } from "./station.schema.js";

/**
 * The agent's configuration. Every leaf can be overridden by an environment variable named
 * `PPS_EDGE_` + the key path in upper snake case (`http.port` → `PPS_EDGE_HTTP_PORT`,
 * `dataDir` → `PPS_EDGE_DATA_DIR`); see config.env.ts. docs/architecture.md#config.
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

/** A password or client secret a person chooses: the product's one password rule (domain/password-policy.ts). */
const chosenSecret = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `at most ${MAX_PASSWORD_LENGTH} characters`)
  .optional();

/** A Zebra on its raw port (docs/hardware.md#label-printers): ZPL out, `~HS` status back. */
const zplSchema = z
  .object({
    host: z
      .string()
      .min(1)
      .max(253)
      .optional()
      .describe("the printer's host name or address (required for `zpl`)"),
    // the object is optional (no printer, no keys): each default is said in its description
    port: count(1, 65535, 9100).describe("raw TCP port (AppSocket/JetDirect); default 9100"),
    statusIntervalMs: count(200, 60_000, 2000).describe(
      "how often `~HS` asks the printer's state; default 2000",
    ),
    statusTimeoutMs: count(200, 60_000, 2000).describe(
      "no `~HS` answer within this: the printer does not answer (it stays silent in some faults); default 2000",
    ),
    jobTimeoutMs: count(1000, 600_000, 30_000).describe(
      "a label the printer has not finished within this is given up and cancelled (`~JA`); default 30000",
    ),
    font: z
      .string()
      .regex(/^[BERZ]:[A-Za-z0-9_-]{1,16}\.(TTF|TTE)$/i, "a font on the printer, e.g. `E:TT0003M_.TTF`")
      .optional()
      .describe(
        "a TrueType font stored on the printer for the label's text (`^A@`); none: the resident `^A0` (see docs/decisions.md#zpl-labels)",
      ),
  })
  .strict()
  .optional();

/** `station` mode: the printer's "job done" releases the bin (spec: Process flow trigger). */
const printingSchema = z
  .object({
    mode: z
      .enum(["external", "station"])
      .default("external")
      .describe(
        "`external`: pick+pack bins wait for `print_ready`; `station`: the agent prints the shipping label and the printer's job-done releases the bin",
      ),
    printer: z
      .enum(["file", "cups", "zpl"])
      .default("file")
      .describe("`file` (PDFs into `printing.dir`), `cups`, or `zpl` (a Zebra on TCP 9100, `printing.zpl`)"),
    cupsQueue: z.string().min(1).max(128).optional().describe("CUPS queue (required for `cups`)"),
    cupsServer: z
      .string()
      .regex(/^[^\s]{1,255}$/, "a host:port or a socket path, without spaces")
      .optional()
      .describe(
        "CUPS server for `lp`, `lpstat`, `cancel` (`CUPS_SERVER`: host:port or socket path); none: the system's",
      ),
    media: z.enum(["4x6", "a6"]).default("4x6").describe("`4x6` (288×432 pt) or `a6`"),
    dir: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "folder of the file printer", shownDefault: "`<dataDir>/labels`" }),
    carrierLabels: carrierLabelsSchema,
    zpl: zplSchema,
  })
  .strict()
  .refine((p) => p.printer !== "cups" || p.cupsQueue !== undefined, {
    message: "printer 'cups' needs cupsQueue",
    path: ["cupsQueue"],
  })
  .refine((p) => p.printer !== "zpl" || p.zpl?.host !== undefined, {
    message: "printer 'zpl' needs the printer's host",
    path: ["zpl", "host"],
  })
  .default({ mode: "external", printer: "file", media: "4x6", carrierLabels: CARRIER_LABEL_DEFAULTS });

const topicLevel = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, '-' or '_' only (it is an MQTT topic level)");

/** Each key's `describe` text is what docs/configuration.md and the package's default config say of it. */
export const configSchema = z
  .object({
    site: topicLevel.default("dc1").describe("site name (an MQTT topic level)"),
    ppsId: topicLevel.default("1").describe("station id (an MQTT topic level)"),
    /** docs/architecture.md#conventions */
    timeZone: timeZone.default("UTC").describe("zone for spec timestamps that carry no offset"),
    dataDir: z.string().min(1).default("./data").describe("database, generated credentials, reports"),
    http: httpSchema,
    /** The Basic client credential of the deployment (spec: Authentication). */
    clientId: z
      .string()
      .min(1)
      .max(128)
      .default("pps-edge")
      .describe("id half of the `Basic` client credential"),
    clientSecret: chosenSecret.meta({
      description: "secret half of the client credential (see docs/security.md#password-rule)",
      shownDefault: "generated",
    }),
    adminUser: z.string().min(1).max(128).default("admin").describe("first API user, created when absent"),
    adminPassword: chosenSecret.meta({
      description: "its password (see docs/security.md#password-rule), used only when creating it",
      shownDefault: "generated",
    }),
    tokenTtlSeconds: z.coerce
      .number()
      .int()
      .min(10)
      .max(7 * 24 * 3600)
      .default(3600)
      .describe("access token validity (`expires_in`)"),
    refreshTokenTtlSeconds: z.coerce
      .number()
      .int()
      .min(60)
      .max(90 * 24 * 3600)
      .default(14 * 24 * 3600)
      .describe("refresh token validity (14 days)"),
    db: z
      .object({
        /** FULL: an acknowledged change survives power loss (docs/architecture.md#durability-and-limits). */
        synchronous: z
          .enum(["FULL", "NORMAL", "EXTRA"])
          .default("FULL")
          .describe(
            "SQLite `synchronous` (`FULL`, `EXTRA`; `NORMAL` gives up durability on power loss and needs `db.powerSafe: false`)",
          ),
        powerSafe: flag
          .default(true)
          .describe(
            "`false` is the explicit consent that `db.synchronous: NORMAL` asks for: an acknowledged change can be lost on power loss; then every start warns and /readyz and `pps-edge diag` say so",
          ),
        busyTimeoutMs: z.coerce
          .number()
          .int()
          .min(0)
          .max(60_000)
          .default(5000)
          .describe(
            "SQLite busy timeout; a change that still finds the database locked is tried twice more, then refused (503 `storage_error`)",
          ),
      })
      .strict()
      // NORMAL leaves the last commits in the page cache until a checkpoint: a power cut loses changes the
      // agent acknowledged (docs/operations.md#what-survives-a-power-cut), so it takes an explicit consent
      .refine((db) => db.synchronous !== "NORMAL" || !db.powerSafe, {
        path: ["synchronous"],
        message:
          "NORMAL can lose acknowledged changes on power loss: use FULL, or set db.powerSafe: false to accept that",
      })
      .default({ synchronous: "FULL", powerSafe: true, busyTimeoutMs: 5000 }),
    // the storage budget (docs/operations.md#storage-budget): past it, changes are refused, reads go on
    storage: z
      .object({
        maxDatabaseBytes: z.coerce
          .number()
          .int()
          .min(1_000_000)
          .max(2 ** 48)
          .default(4 * 2 ** 30)
          .describe(
            "the station database's budget: from this many bytes of pages in use on, changes are refused (503 `storage_budget`) before they begin; reads go on",
          ),
        minFreeDiskBytes: z.coerce
          .number()
          .int()
          .min(0)
          .max(2 ** 48)
          .default(512 * 2 ** 20)
          .describe(
            "the free disk the database must leave: with less free, changes are refused (503 `storage_budget`)",
          ),
        stationReserveBytes: z.coerce
          .number()
          .int()
          .min(0)
          .max(2 ** 40)
          .default(64 * 2 ** 20)
          .describe(
            "past `storage.maxDatabaseBytes` the work at the station (picks, puts, scans, the screen's taps) goes on for this many more bytes, so a client that filled the budget does not stop the operators",
          ),
      })
      .strict()
      .default({
        maxDatabaseBytes: 4 * 2 ** 30,
        minFreeDiskBytes: 512 * 2 ** 20,
        stationReserveBytes: 64 * 2 ** 20,
      }),
    station: stationSchema,
    /** Pick+pack rule and work limits of a pick request (work.schema.ts). */
    pick: pickSchema,
    /** Bounds of a search_v2 answer (work.schema.ts). */
    search: searchSchema,
    outbox: z
      .object({
        maxUndelivered: z.coerce
          .number()
          .int()
          .min(100)
          .max(100_000_000)
          .default(1_000_000)
          .describe(
            "changes are refused (503 `outbox_full`) while this many notifications wait; none is dropped",
          ),
        maxUndeliveredBytes: z.coerce
          .number()
          .int()
          .min(1_000_000)
          .max(2 ** 48)
          .default(256 * 2 ** 20)
          .describe(
            "changes are refused (503 `outbox_full`) while the waiting notifications take this many bytes; none is dropped",
          ),
      })
      .strict()
      .default({ maxUndelivered: 1_000_000, maxUndeliveredBytes: 256 * 2 ** 20 }),
    devices: z
      .object({
        profilesDir: z.string().min(1).optional().meta({
          description: "folder of firmware profiles (`*.json`)",
          shownDefault: "`firmware-profiles/` of the agent",
        }),
      })
      .strict()
      .default({}),
    /** MQTT sync (docs/mqtt.md, docs/mqtt.md#connection-will-and-session-numbers). */
    mqtt: mqttSchema,
    webhooks: webhooksSchema,
    /** Who may read `/metrics` (security.schema.ts). */
    metrics: metricsSchema,
    printing: printingSchema,
    security: z
      .object({
        eventRetentionDays: count(1, 3650, 90).describe(
          "security events older than this are deleted (see docs/security.md#security-event-log)",
        ),
        /** A flood of events cannot fill the disk. */
        eventMaxRows: count(1000, 10_000_000, 100_000).describe(
          "at most this many security events are kept; the oldest go first",
        ),
      })
      .strict()
      .default({ eventRetentionDays: 90, eventMaxRows: 100_000 }),
    // inventory reports and their files do not pile up (docs/operations.md#report-retention)
    reports: z
      .object({
        keep: count(1, 100_000, 100).describe(
          "at most this many finished inventory reports (rows and CSV files) are kept; the oldest go first",
        ),
        maxAgeDays: count(1, 3650, 30).describe(
          "finished inventory reports older than this are deleted, with their files",
        ),
      })
      .strict()
      .default({ keep: 100, maxAgeDays: 30 }),
    log: z
      .object({
        level: logLevel.default("info").describe("`fatal` … `trace`, `silent`"),
        /** Under systemd each JSON line carries its journal priority. */
        format: z
          .enum(["auto", "json", "pretty"])
          .default("auto")
          .describe(
            "`auto`: readable coloured lines on a terminal, JSON lines otherwise; `json`; `pretty` (see docs/operations.md#logs)",
          ),
      })
      .strict()
      .default({ level: "info", format: "auto" }),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
