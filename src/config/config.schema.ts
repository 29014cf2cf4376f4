import { z } from "zod";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../domain/password-policy.js";
import { httpSchema } from "./http.schema.js";
import { embeddedTlsSchema, metricsSchema } from "./security.schema.js";

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

export const DEFAULT_SEATS = ["front", "back"];
export const DEFAULT_BINS = ["1", "2", "3", "4", "5", "6", "7", "8"];

const count = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** 127.0.0.0/8, ::1 or localhost: only processes of the station's own computer can connect. */
function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Every listener of the embedded broker (plain, and TLS when it has a certificate) is on loopback. */
function embeddedListenersOnLoopback(m: {
  embeddedHost: string;
  embeddedTls: { host?: string | undefined; certFile?: string | undefined };
}): boolean {
  const tlsHost =
    m.embeddedTls.certFile === undefined ? m.embeddedHost : (m.embeddedTls.host ?? m.embeddedHost);
  return isLoopback(m.embeddedHost) && isLoopback(tlsHost);
}

/**
 * `url`: `embedded` (an in-process broker on embeddedHost:embeddedPort), `off`, or a broker URL.
 * `clientId` defaults to `pps-edge-<site>-<ppsId>`: stable and unique per station, because two
 * clients with one id kick each other off in a loop (docs/mqtt.md#backoff-and-reconnects).
 */
const mqttObject = z
  .object({
    url: z
      .string()
      .refine((v) => v === "embedded" || v === "off" || /^mqtts?:\/\/[^\s/]+/.test(v), {
        message: "embedded, off, or an mqtt:// or mqtts:// URL",
      })
      .default("embedded"),
    embeddedHost: z.string().min(1).default("127.0.0.1"),
    /** 0 picks a free port (tests). */
    embeddedPort: count(0, 65535, 1883),
    /**
     * Clients without credentials on the embedded broker: for trying the station out on its own
     * computer, so only with a loopback embeddedHost (refused below otherwise; warned at start).
     */
    /** The embedded broker's `mqtts://` listener, beside the plain one (security.schema.ts). */
    embeddedTls: embeddedTlsSchema,
    embeddedAnonymous: z
      .preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean())
      .default(false),
    /** 5 for brokers that speak MQTT 5 (PUBACK reason codes); 4 for 3.1.1. The embedded broker is 3.1.1. */
    protocolVersion: z.coerce
      .number()
      .pipe(z.union([z.literal(4), z.literal(5)]))
      .default(5),
    username: z.string().min(1).max(256).optional(),
    password: z.string().min(1).max(1024).optional(),
    caFile: z.string().min(1).optional(),
    certFile: z.string().min(1).optional(),
    keyFile: z.string().min(1).optional(),
    clientId: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,128}$/, "letters, digits, '_', '.', ':' or '-' (1-128)")
      .optional(),
    keepaliveSeconds: count(5, 3600, 15),
    connectTimeoutMs: count(1000, 300_000, 30_000),
    /**
     * Reconnect steps (docs/mqtt.md#backoff-and-reconnects): the first retry after a stable connection
     * comes within `reconnectMinMs`; while the broker is away the step doubles up to `reconnectMaxMs`
     * (4 s: a fleet is back within seconds of the broker's return); connections lost soon after they
     * were made grow it up to `reconnectFlappingMaxMs`.
     */
    reconnectMinMs: count(10, 600_000, 1000),
    reconnectMaxMs: count(10, 3_600_000, 4000),
    reconnectFlappingMaxMs: count(10, 3_600_000, 60_000),
    /** Notifications published and not yet acknowledged (PUBACK) at any moment. */
    inflightWindow: count(1, 65_535, 64),
    /** A notification larger than this (bytes) is moved aside instead of sent. */
    maxMessageBytes: count(1024, 256 * 1024 * 1024, 1024 * 1024),
    /** Connections lost with the same oldest notification unacknowledged before it is moved aside. */
    maxDeliveryAttempts: count(1, 1_000_000, 10),
    pruneDeliveredAfterHours: count(1, 24 * 365, 168),
    /**
     * A finished request's retained `state/<type>/<id>` is cleared this long after it became final
     * (0: at once), so the broker holds the active requests only (docs/mqtt.md#retained-state).
     */
    retainTerminalSeconds: count(0, 365 * 24 * 3600, 3600),
    /** Answered requests are remembered this long, so a repeated `transaction` is not applied twice. */
    inboxRetentionHours: count(1, 24 * 365, 168),
    /** /readyz, the log and /metrics report the outbox from this many undelivered notifications … */
    outboxWarnDepth: count(1, 100_000_000, 10_000),
    /** … or when the oldest undelivered one is this old. */
    outboxWarnAgeSeconds: count(1, 30 * 24 * 3600, 300),
  })
  .strict()
  .refine((m) => m.reconnectMinMs <= m.reconnectMaxMs, {
    message: "reconnectMinMs must not exceed reconnectMaxMs",
    path: ["reconnectMinMs"],
  })
  .refine((m) => !m.embeddedAnonymous || m.url !== "embedded" || embeddedListenersOnLoopback(m), {
    message: "anonymous clients are allowed only when the embedded broker listens on loopback",
    path: ["embeddedAnonymous"],
  });

/** A password or client secret a person chooses: the product's one password rule (domain/password-policy.ts). */
const chosenSecret = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `at most ${MAX_PASSWORD_LENGTH} characters`)
  .optional();

const mqttSchema = mqttObject.default(() => mqttObject.parse({}));

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
    /** Zone used to read spec timestamps that carry no offset (docs/architecture.md#conventions). */
    timeZone: timeZone.default("UTC"),
    dataDir: z.string().min(1).default("./data"),
    http: httpSchema,
    /** The Basic client credential of the deployment (spec: Authentication). */
    clientId: z.string().min(1).max(128).default("pps-edge"),
    clientSecret: chosenSecret,
    /** The first API user, created at start when absent. */
    adminUser: z.string().min(1).max(128).default("admin"),
    adminPassword: chosenSecret,
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
        /** FULL: an acknowledged change survives power loss (docs/architecture.md#durability-and-limits). */
        synchronous: z.enum(["FULL", "NORMAL", "EXTRA"]).default("FULL"),
        busyTimeoutMs: z.coerce.number().int().min(0).max(60_000).default(5000),
      })
      .strict()
      .default({ synchronous: "FULL", busyTimeoutMs: 5000 }),
    station: z
      .object({
        /**
         * The station file (YAML, docs/architecture.md#the-station-model): devices, and the seats and bins with their lights and
         * sensors. Absent: the embedded simulated station built from `seats` and `bins` below.
         */
        file: z.string().min(1).optional(),
        /** Seats of the station (docs/architecture.md#the-station-model); a station file's seats take their place. */
        seats: idList(DEFAULT_SEATS),
        /** Order bin ids (`ppsBinId`); a station file's bins take their place. */
        bins: idList(DEFAULT_BINS),
        /** The mode a new station database starts in. */
        initialMode: z.enum(["pick", "put", "audit"]).default("pick"),
        /** Spec: staging needs a logged-in seat "unless the configuration allows staging with logout". */
        stagingWithLogout: z
          .preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean())
          .default(false),
        /** A scan equal to the scanner's previous one within this window is dropped (double delivery). */
        scanDebounceMs: count(0, 10_000, 300),
        /** How long a refused scan's error signal shows before the light returns to what it showed. */
        errorSignalMs: count(0, 60_000, 1500),
        /** Language of the operator screen (an operator may choose their own there). */
        language: z.enum(["en", "de"]).default("en"),
      })
      .strict()
      .default({
        seats: ["front", "back"],
        bins: DEFAULT_BINS,
        initialMode: "pick",
        stagingWithLogout: false,
        scanDebounceMs: 300,
        errorSignalMs: 1500,
        language: "en",
      }),
    outbox: z
      .object({
        /** Changes are refused (503 outbox_full) while this many notifications wait undelivered. */
        maxUndelivered: z.coerce.number().int().min(100).max(100_000_000).default(1_000_000),
      })
      .strict()
      .default({ maxUndelivered: 1_000_000 }),
    devices: z
      .object({
        /** Folder of firmware profiles (`*.json`); absent: the `firmware-profiles/` shipped with the agent. */
        profilesDir: z.string().min(1).optional(),
      })
      .strict()
      .default({}),
    /** MQTT sync (docs/mqtt.md, docs/mqtt.md#connection-will-and-session-numbers); every key documented in the README. */
    mqtt: mqttSchema,
    /** Who may read `/metrics` (security.schema.ts). */
    metrics: metricsSchema,
    printing: z
      .object({
        /**
         * `external`: pick+pack bins wait for the print_ready call (spec: Process flow trigger).
         * `station`: the agent prints the shipping label itself and the printer's "job done" releases the bin.
         */
        mode: z.enum(["external", "station"]).default("external"),
        /** `file`: labels are written as PDF to `dir` (the simulated printer); `cups`: sent to `cupsQueue`. */
        printer: z.enum(["file", "cups"]).default("file"),
        cupsQueue: z.string().min(1).max(128).optional(),
        media: z.enum(["4x6", "a6"]).default("4x6"),
        /** Folder of the file printer; default `<dataDir>/labels`. */
        dir: z.string().min(1).optional(),
      })
      .strict()
      .refine((p) => p.printer !== "cups" || p.cupsQueue !== undefined, {
        message: "printer 'cups' needs cupsQueue",
        path: ["cupsQueue"],
      })
      .default({ mode: "external", printer: "file", media: "4x6" }),
    security: z
      .object({
        /** Security events older than this are pruned (README "Security event log"). */
        eventRetentionDays: count(1, 3650, 90),
        /** … and beyond this many, the oldest go first: a flood of events cannot fill the disk. */
        eventMaxRows: count(1000, 10_000_000, 100_000),
      })
      .strict()
      .default({ eventRetentionDays: 90, eventMaxRows: 100_000 }),
    log: z
      .object({
        level: logLevel.default("info"),
        /**
         * `auto`: readable coloured lines on a terminal, JSON lines otherwise (and under systemd, with
         * each line's journal priority); `json` or `pretty` force one (docs/operations.md#logs).
         */
        format: z.enum(["auto", "json", "pretty"]).default("auto"),
      })
      .strict()
      .default({ level: "info", format: "auto" }),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
