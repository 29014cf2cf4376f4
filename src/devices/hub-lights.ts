/**
 * The hub's light routing: a light command goes to the adapter of its device, refused with a stable
 * error kind when the device is unknown or has no lights, and counted by outcome.
 */
import { AppError } from "../domain/errors.js";
import type { DeviceCounters } from "./device-health.js";
import { isDeviceUnavailable } from "./drivers/adapter.types.js";
import type { LightCommand } from "./hub.types.js";
import type { Adapters } from "./hub-adapters.js";

export async function routeLight(
  adapters: Adapters,
  counted: DeviceCounters["lights"],
  command: LightCommand,
): Promise<void> {
  const adapter = adapters.get(command.deviceId);
  if (!adapter) {
    throw new AppError("not_found", `no device '${command.deviceId}'`, [
      { path: "deviceId", message: "unknown" },
    ]);
  }
  if (!adapter.light) {
    throw new AppError("validation_failed", `device '${command.deviceId}' has no lights`, [
      { path: "deviceId", message: "not a ptl-controller" },
    ]);
  }
  const labels = { device: command.deviceId, outcome: "ok" };
  try {
    await adapter.light(command);
    counted.inc(labels);
  } catch (err) {
    counted.inc({
      ...labels,
      outcome: isDeviceUnavailable(err) ? "unavailable" : "error",
    });
    throw err;
  }
}
