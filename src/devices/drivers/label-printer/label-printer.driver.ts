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
  features: [
    "PDF labels through CUPS, done when lpstat says so",
    "ZPL to a Zebra on TCP 9100 (`printing.printer: zpl`): done when ~HS shows the label printed with no fault; paused, paper out, head open and no answer refused in words; a label given up on cancelled with ~JA",
  ],
  profile: labelPrinterSpec,
  checks: labelPrinterChecks,
  codec: () => null,
  createAdapter: () => null,
});
