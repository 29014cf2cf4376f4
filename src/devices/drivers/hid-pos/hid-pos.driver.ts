/** Scanners in USB HID POS mode (usage page 0x8C) (docs/hardware.md#hid-pos-scanners). */
import { defineDriver } from "../driver.js";
import { createHidPosAdapter } from "./hid-pos.adapter.js";
import { hidPosChecks, hidPosCodec, hidPosSpec } from "./hid-pos.profile.js";

export const hidPosDriver = defineDriver({
  name: "hid-pos",
  kinds: ["scanner"],
  transports: ["hid"],
  features: ["multi-report messages", "AIM ids", "vendor symbology ids", "GS1 element strings"],
  profile: hidPosSpec,
  checks: hidPosChecks,
  codec: hidPosCodec,
  createAdapter: (ctx, _device, profile, io) =>
    createHidPosAdapter(ctx, profile, (events) => io.hidLink(events)),
});
