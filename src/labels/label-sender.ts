/**
 * What is sent to the printer for an order's label (docs/station.md#shipping-labels-pickpack): the
 * carrier's own label when the order names one (docs/station.md#carrier-labels), the agent's own label
 * as a packing slip after it if asked; otherwise the agent's own label in the printer's first format,
 * ZPL for a Zebra (docs/hardware.md#zpl-labels), else PDF.
 */
import type { Logger } from "pino";
import type { LabelPrinter, PrintJob } from "../devices/drivers/label-printer/label-printer.js";
import type { LabelData } from "../domain/label-data.js";
import type { CarrierLabelFetch } from "./carrier-label-fetch.js";
import { createCarrierLabels } from "./carrier-label-job.js";
import { labelFonts } from "./label-fonts.js";
import type { LabelMedia } from "./media.js";
import { type ZplLabelOptions, zplLabelDocument } from "./zpl-label.js";

export interface LabelSenderDeps {
  printer: LabelPrinter;
  media: LabelMedia;
  log: Logger;
  carrier: { fetch: CarrierLabelFetch; packingSlip: boolean };
  zpl?: ZplLabelOptions | undefined;
}

/** Sends one order's label; resolves when the printer printed it, throws (in words) when it did not. */
export function labelSender(deps: LabelSenderDeps): (data: LabelData, job: PrintJob) => Promise<void> {
  const carrier = createCarrierLabels({
    ...deps.carrier,
    printer: deps.printer,
    media: deps.media,
    log: deps.log,
  });
  async function send(data: LabelData, job: PrintJob): Promise<void> {
    if (data.carrierLabelUrl)
      return carrier.print({ ...data, carrierLabelUrl: data.carrierLabelUrl }, job, (slip) =>
        send({ ...data, carrierLabelUrl: undefined }, slip),
      );
    if (deps.printer.accepts[0] === "zpl")
      return deps.printer.print(zplLabelDocument(data, deps.media, deps.zpl), job);
    // pdf-lib and bwip-js load with the first label, not with the agent (they weigh ~30 MB).
    const { renderShippingLabel } = await import("./shipping-label.js");
    const pdf = await renderShippingLabel(data, deps.media, await labelFonts());
    await deps.printer.print({ format: "pdf", bytes: pdf }, job);
  }
  return send;
}
