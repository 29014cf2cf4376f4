/**
 * The station's Zebra built from `printing.zpl` (docs/hardware.md#zpl-labels): the one place the config's
 * keys become the printer's options.
 */
import type { Logger } from "pino";
import type { Config } from "../config/config.schema.js";
import { type ZebraPrinter, zebraPrinter } from "../devices/drivers/label-printer/zebra-printer.js";

export function zebraPrinterFor(printing: Config["printing"], log: Logger): ZebraPrinter {
  const zpl = printing.zpl;
  // the schema refuses printer zpl without a host (printing.zpl.host)
  if (zpl?.host === undefined) throw new Error("printing.zpl.host is required for printer zpl");
  return zebraPrinter({
    host: zpl.host,
    port: zpl.port,
    statusIntervalMs: zpl.statusIntervalMs,
    statusTimeoutMs: zpl.statusTimeoutMs,
    jobTimeoutMs: zpl.jobTimeoutMs,
    log: log.child({ part: "zebra" }),
  });
}
