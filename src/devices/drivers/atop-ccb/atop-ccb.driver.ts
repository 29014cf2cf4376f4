/**
 * Atop ABLEPick AT500/AT400 put-to-light controllers: CCB frames over TCP or RS-232
 * (docs/hardware.md#atop-ccb).
 */
import { defineDriver } from "../driver.js";
import { createAtopCcbAdapter } from "./atop-ccb.adapter.js";
import { atopCcbChecks, atopCcbCodec, atopCcbSpec } from "./atop-ccb.profile.js";

export const atopCcbDriver = defineDriver({
  name: "atop-ccb",
  kinds: ["ptl-controller"],
  // The AT400 takes the same frames on its RS-232 port (docs/hardware.md#atop-ccb).
  transports: ["tcp", "serial"],
  features: ["colours", "blink", "quantity display", "confirm and shortage buttons", "tag timeout retries"],
  profile: atopCcbSpec,
  checks: atopCcbChecks,
  codec: atopCcbCodec,
  createAdapter: (ctx, _device, profile, io) =>
    createAtopCcbAdapter(ctx, profile, (events) => io.link(events)),
});
