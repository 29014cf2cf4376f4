import { z } from "zod";
import { originOf } from "../domain/origin.js";
import { commaSeparated, count, flag } from "./config-values.js";
import {
  DEFAULT_IDLE_LOGOUT_MS,
  DEFAULT_IDLE_WARNING_MS,
  DEFAULT_PRODUCTIVITY,
  productivitySchema,
} from "./shift.schema.js";

/**
 * The `station` key: seats and bins, scanning, the screen's language, capture, training, the kiosk's keys
 * and the shift lead's tools (docs/configuration.md, docs/station.md#operator-screen).
 */

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

export const stationSchema = z
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
        "seats that start in training: they work against the training station (simulated devices, a database of their own under `<dataDir>/training/`), nothing reaches central (comma-separated in the variable); an admin or a supervisor at the seat's screen puts seats in and out of training at runtime too, and those are kept across restarts",
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
