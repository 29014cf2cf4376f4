import { z } from "zod";
import { originOf } from "../domain/origin.js";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../domain/password-policy.js";
import { commaSeparated, count, flag } from "./config-values.js";
import { httpSchema } from "./http.schema.js";
import { mqttSchema } from "./mqtt.schema.js";
import { metricsSchema } from "./security.schema.js";
import {
  DEFAULT_IDLE_LOGOUT_MS,
  DEFAULT_IDLE_WARNING_MS,
  DEFAULT_PRODUCTIVITY,
  productivitySchema,
} from "./shift.schema.js";
import { webhooksSchema } from "./webhooks.schema.js";
import { pickSchema, searchSchema } from "./work.schema.js";

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

/** A list from YAML, or a comma-separated string from an environment variable. */
const idList = (fallback: string[]) =>
  z.preprocess(
    commaSeparated,
    z
      .array(z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "letters, digits, '-' or '_' (1-32)"))
      .min(1)
      .max(256)
      .refine((l) => new Set(l).size === l.length, "ids must be unique")
      .default(fallback),
  );

export const DEFAULT_SEATS = ["front", "back"];
export const DEFAULT_BINS = ["1", "2", "3", "4", "5", "6", "7", "8"];

/** A password or client secret a person chooses: the product's one password rule (domain/password-policy.ts). */
const chosenSecret = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `at most ${MAX_PASSWORD_LENGTH} characters`)
  .optional();

/** A product attribute's name as `station.capture` names one (a JSON path label, no quoting needed). */
const attributeName = z
  .string()
  .regex(
    /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/,
    "a product attribute's name: letters, digits, _ and -, at most 64",
  );

/** One kind of capture (docs/capture.md#configuration); `when: null` never asks for it. */
const captureRule = (when: string, as: string, what: string) =>
  z
    .object({
      when: attributeName
        .nullable()
        .default(when)
        .describe(
          `product attribute whose value \`true\` says an item needs its ${what} captured at the seat; \`null\`: never asked`,
        ),
      as: attributeName
        .refine(
          (a) => !["pdfa_values", "package_name", "package_count"].includes(a),
          "a name actuals use already",
        )
        .default(as)
        .describe(`product attribute the captured ${what} is reported under in the pick's actuals`),
    })
    .strict()
    .default({ when, as });

const captureSchema = z
  .object({
    serial: captureRule("serial_required", "serial_number", "serial number"),
    lot: captureRule("lot_required", "lot", "lot"),
    expiry: captureRule("expiry_required", "expiry_date", "expiry date"),
  })
  .strict()
  .default({
    serial: { when: "serial_required", as: "serial_number" },
    lot: { when: "lot_required", as: "lot" },
    expiry: { when: "expiry_required", as: "expiry_date" },
  });

const stationSchema = z
  .object({
    /** docs/architecture.md#the-station-model: devices, and the seats and bins with their lights and sensors. */
    file: z
      .string()
      .min(1)
      .optional()
      .describe(
        "station file (devices, seats, bins); absent: the embedded simulated station (see docs/station.md#station-devices)",
      ),
    /** A station file's seats and bins take the place of these two. */
    seats: idList(DEFAULT_SEATS).describe("seat names (comma-separated in the variable)"),
    bins: idList(DEFAULT_BINS).describe("order bin ids (`ppsBinId`)"),
    initialMode: z.enum(["pick", "put", "audit"]).default("pick").describe("mode of a new station database"),
    /** Spec: staging needs a logged-in seat "unless the configuration allows staging with logout". */
    stagingWithLogout: flag.default(false).describe("allow put staging with no operator logged in"),
    scanDebounceMs: count(0, 10_000, 300).describe(
      "a scan equal to the same scanner's previous one within this window is dropped (double delivery)",
    ),
    errorSignalMs: count(0, 60_000, 1500).describe(
      "how long a refused scan's error signal shows before the light returns to its state",
    ),
    language: z
      .enum(["en", "de", "pl", "cs", "nl", "fr", "es", "tr"])
      .default("en")
      .describe(
        "language of the operator screen (`en`, `de`, `pl`, `cs`, `nl`, `fr`, `es`, `tr`); an operator may choose their own there",
      ),
    damageBin: z
      .string()
      .min(1)
      .max(64)
      .nullable()
      .default(null)
      .describe(
        "where the operator puts a damaged unit (a bin or tote named on the screen, e.g. `DMG-1`); unset: the unit is left in the slot",
      ),
    imageHosts: z
      .preprocess(
        commaSeparated,
        z
          .array(
            z
              .string()
              .refine(
                (o) => originOf(o) === o,
                "an origin: http(s)://host[:port], no path and no trailing '/'",
              ),
          )
          .max(16)
          .optional(),
      )
      .describe(
        "origins the operator screen shows item images (`imageUrl`) from, e.g. `https://images.example.com` (comma-separated in the variable); unset: none. An image elsewhere is not shown, and the page's CSP lets the browser fetch none",
      ),
    capture: captureSchema,
    // docs/station.md#training: a seat in training works against the training station
    trainingSeats: z
      .preprocess(
        commaSeparated,
        z
          .array(z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, "letters, digits, '-' or '_' (1-32)"))
          .max(256)
          .default([]),
      )
      .describe(
        "seats that start in training: they work against the training station (simulated devices, a database of their own under `<dataDir>/training/`), nothing reaches central (comma-separated in the variable); an admin puts seats in and out of training at runtime too",
      ),
    trainingScenario: z
      .string()
      .min(1)
      .optional()
      .describe(
        "the work a training station starts with: a JSON file of `mode`, `items`, `stock`, `requests`, `racks`, `stagedPuts` and `audits` (see examples/training-scenario.json); unset: the built-in scenario",
      ),
  })
  .extend({
    kioskKeysDir: z
      .string()
      .min(1)
      .nullable()
      .default(null)
      .describe(
        "a folder the agent writes each seat's screen key into as `<seat>.key`, mode 0640 with the folder's group, for the station box's kiosk user (docs/operations.md#kiosk); unset: none",
      ),
    // the shift lead's tools (docs/station.md#productivity-and-the-shift, docs/station.md#idle-logout)
    idleLogoutMs: count(0, 86_400_000, DEFAULT_IDLE_LOGOUT_MS).describe(
      "an operator who has done nothing at the seat this long is signed out (with work in hand: warned first); 0: never",
    ),
    idleWarningMs: count(0, 3_600_000, DEFAULT_IDLE_WARNING_MS).describe(
      "how long the idle warning (with its countdown) shows before an operator with work in hand is signed out",
    ),
    productivity: productivitySchema,
  })
  .strict()
  .default({
    kioskKeysDir: null,
    seats: ["front", "back"],
    bins: DEFAULT_BINS,
    initialMode: "pick",
    stagingWithLogout: false,
    scanDebounceMs: 300,
    errorSignalMs: 1500,
    language: "en",
    damageBin: null,
    capture: captureSchema.parse(undefined),
    trainingSeats: [],
    idleLogoutMs: DEFAULT_IDLE_LOGOUT_MS,
    idleWarningMs: DEFAULT_IDLE_WARNING_MS,
    productivity: { ...DEFAULT_PRODUCTIVITY },
  });

/** `station` mode: the printer's "job done" releases the bin (spec: Process flow trigger). */
const printingSchema = z
  .object({
    mode: z
      .enum(["external", "station"])
      .default("external")
      .describe(
        "`external`: pick+pack bins wait for `print_ready`; `station`: the agent prints the shipping label and the printer's job-done releases the bin",
      ),
    printer: z.enum(["file", "cups"]).default("file").describe("`file` (PDFs into `printing.dir`) or `cups`"),
    cupsQueue: z.string().min(1).max(128).optional().describe("CUPS queue (required for `cups`)"),
    media: z.enum(["4x6", "a6"]).default("4x6").describe("`4x6` (288×432 pt) or `a6`"),
    dir: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "folder of the file printer", shownDefault: "`<dataDir>/labels`" }),
  })
  .strict()
  .refine((p) => p.printer !== "cups" || p.cupsQueue !== undefined, {
    message: "printer 'cups' needs cupsQueue",
    path: ["cupsQueue"],
  })
  .default({ mode: "external", printer: "file", media: "4x6" });

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
