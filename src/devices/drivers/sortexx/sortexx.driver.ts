/** SorTexx-style put-to-light units: 11-byte ASCII frames on a serial line (docs/hardware.md#sortexx-ascii). */
import { defineDriver } from "../driver.js";
import { createSortexxAdapter } from "./sortexx.adapter.js";
import { sortexxChecks, sortexxCodec, sortexxSpec } from "./sortexx.profile.js";

export const sortexxDriver = defineDriver({
  name: "sortexx",
  kinds: ["ptl-controller"],
  transports: ["serial"],
  features: ["colours", "blink", "confirm button", "busy/no-answer retries"],
  profile: sortexxSpec,
  checks: sortexxChecks,
  codec: sortexxCodec,
  createAdapter: (ctx, _device, profile, io) =>
    createSortexxAdapter(ctx, profile, (events) => io.link(events)),
});
