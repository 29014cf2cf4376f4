/**
 * The simulator: every device whose station-file transport is `sim` (and every device of the embedded
 * station, docs/architecture.md#the-station-model) runs here, with or without a profile; the hub's simulator
 * handle drives it. It reads no profile of its own, so it adds no fields and no checks.
 */
import { defineDriver } from "../driver.js";
import { SimLights, SimScanner, SimSensors, simInterpretOptions } from "./sim.adapter.js";

export const simDriver = defineDriver({
  name: "sim",
  kinds: ["scanner", "ptl-controller", "bin-sensor"],
  transports: ["sim"],
  features: ["scans, button presses and sensor changes injected", "lights read back"],
  profile: null,
  checks: () => {},
  codec: simInterpretOptions,
  createAdapter(ctx, device, profile) {
    if (device.kind === "scanner") return new SimScanner(ctx, profile);
    if (device.kind === "ptl-controller") return new SimLights(ctx);
    if (device.kind === "bin-sensor") return new SimSensors(ctx, profile);
    return null; // printers: the file printer of the config is the simulated one
  },
});
