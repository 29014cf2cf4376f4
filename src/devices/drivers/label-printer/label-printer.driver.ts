/**
 * Label printers: PDF through a CUPS queue, or ZPL on a raw port (docs/hardware.md#label-printers). The hub
 * does not drive them: the label printing part renders a label (labels/) and hands it whole to a
 * `LabelPrinter` (label-printer.ts), so there is no byte codec and no hub adapter.
 */
import { defineDriver } from "../driver.js";
import { labelPrinterChecks, labelPrinterSpec } from "./label-printer.profile.js";

export const labelPrinterDriver = defineDriver({
  name: "label-printer",
  kinds: ["printer"],
  transports: ["tcp"],
  features: ["PDF labels through CUPS, done when lpstat says so", "ZPL raw profiles (checked; not sent yet)"],
  profile: labelPrinterSpec,
  checks: labelPrinterChecks,
  codec: () => null,
  createAdapter: () => null,
});
