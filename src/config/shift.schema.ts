import { z } from "zod";
import { count } from "./config-values.js";

/**
 * The `station.productivity` keys and the idle logout's defaults (docs/station.md#productivity-and-the-shift):
 * the targets the seat's figures are shown against; central may set others over MQTT
 * (`request/set_productivity_targets`), which then take their place.
 */
export const DEFAULT_IDLE_LOGOUT_MS = 300_000;
export const DEFAULT_IDLE_WARNING_MS = 60_000;
export const DEFAULT_PRODUCTIVITY = { linesPerHour: 0, unitsPerHour: 0 };

export const productivitySchema = z
  .object({
    linesPerHour: count(0, 100_000, DEFAULT_PRODUCTIVITY.linesPerHour).describe(
      "target of lines an hour an operator's last 15 minutes are shown against (below, at within ±5 %, above); 0: none",
    ),
    unitsPerHour: count(0, 1_000_000, DEFAULT_PRODUCTIVITY.unitsPerHour).describe(
      "target of units an hour, likewise; 0: none",
    ),
  })
  .strict()
  .default({ ...DEFAULT_PRODUCTIVITY });
