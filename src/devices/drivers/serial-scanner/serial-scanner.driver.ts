/**
 * Scanners in USB-CDC or RS-232 mode: scans as framed lines on a serial port
 * (docs/hardware.md#serial-scanners).
 */
import { defineDriver } from "../driver.js";
import { createSerialScannerAdapter } from "./serial-scanner.adapter.js";
import { serialScannerChecks, serialScannerCodec, serialScannerSpec } from "./serial-scanner.profile.js";

export const serialScannerDriver = defineDriver({
  name: "serial-scanner",
  kinds: ["scanner"],
  transports: ["serial"],
  features: ["prefix/suffix framing", "AIM ids", "GS1 element strings"],
  profile: serialScannerSpec,
  checks: serialScannerChecks,
  codec: serialScannerCodec,
  createAdapter: (ctx, _device, profile, io) =>
    createSerialScannerAdapter(ctx, profile, (events) => io.link(events)),
});
