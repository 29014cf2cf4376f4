/**
 * Scanners in USB HID keyboard ("wedge") mode, read as HID so no window needs the focus
 * (docs/hardware.md#hid-keyboard-wedge-scanners).
 */
import { defineDriver } from "../driver.js";
import { createHidKeyboardAdapter } from "./hid-keyboard.adapter.js";
import { hidKeyboardChecks, hidKeyboardCodec, hidKeyboardSpec } from "./hid-keyboard.profile.js";

export const hidKeyboardDriver = defineDriver({
  name: "hid-keyboard",
  kinds: ["scanner"],
  transports: ["hid"],
  features: ["US layout", "Alt+keypad codes", "Ctrl maps", "idle terminator", "GS1 element strings"],
  profile: hidKeyboardSpec,
  checks: hidKeyboardChecks,
  codec: hidKeyboardCodec,
  createAdapter: (ctx, _device, profile, io) =>
    createHidKeyboardAdapter(ctx, profile, (events) => io.hidLink(events)),
});
