/**
 * An order's carrier label printed in place of the agent's own (docs/station.md#carrier-labels): fetched,
 * brought into the printer's format, printed; with `printing.carrierLabels.packingSlip` the agent's own
 * label follows as a packing slip. When the carrier's label printed and the slip did not, a reprint
 * prints only the slip: a box never gets the carrier's label twice.
 */
import type { Logger } from "pino";
import type {
  LabelDocument,
  LabelPrinter,
  PrintJob,
} from "../devices/drivers/label-printer/label-printer.js";
import type { LabelData } from "../domain/label-data.js";
import { conversionFor } from "./carrier-label-conversion.js";
import type { CarrierLabelFetch } from "./carrier-label-fetch.js";
import type { LabelMedia } from "./media.js";

export interface CarrierLabelDeps {
  fetch: CarrierLabelFetch;
  printer: LabelPrinter;
  media: LabelMedia;
  packingSlip: boolean;
  log: Logger;
}

/** The document the printer is sent for what the carrier served; throws the refusal in words. */
export async function carrierDocument(
  served: LabelDocument,
  accepts: LabelPrinter["accepts"],
  media: LabelMedia,
): Promise<LabelDocument> {
  const how = conversionFor(served.format, accepts);
  if ("refused" in how) throw new Error(how.refused);
  if (how.conversion === "png-to-pdf") {
    const { pngToPdf } = await import("./png-to-pdf.js");
    return { format: "pdf", bytes: await pngToPdf(served.bytes, media) };
  }
  if (how.conversion === "png-to-zpl") {
    const { pngToZpl } = await import("./png-to-zpl.js");
    return { format: "zpl", bytes: Buffer.from(pngToZpl(served.bytes, media), "latin1") };
  }
  return served;
}

export function createCarrierLabels(deps: CarrierLabelDeps) {
  /** Jobs whose carrier label printed and whose packing slip did not (yet). */
  const slipOwed = new Set<string>();

  return {
    /**
     * Prints the order's carrier label (and its slip, when configured); `own` prints the agent's own
     * label under the job given. Throws with why when something did not print.
     */
    async print(
      data: LabelData & { carrierLabelUrl: string },
      job: PrintJob,
      own: (job: PrintJob) => Promise<void>,
    ): Promise<void> {
      if (!slipOwed.has(job.name)) {
        const fetched = await deps.fetch(data.carrierLabelUrl);
        const doc = await carrierDocument(
          { format: fetched.format, bytes: fetched.bytes },
          deps.printer.accepts,
          deps.media,
        );
        await deps.printer.print(doc, job);
        deps.log.info(
          {
            externalServiceRequestId: data.externalServiceRequestId,
            served: fetched.format,
            sent: doc.format,
          },
          "carrier label printed",
        );
        if (!deps.packingSlip) return;
        slipOwed.add(job.name);
      }
      try {
        await own({ ...job, name: `${job.name}-slip` });
      } catch (err) {
        throw new Error(
          `the carrier's label printed; the packing slip did not: ${err instanceof Error ? err.message : err}`,
        );
      }
      slipOwed.delete(job.name);
    },
  };
}

export type CarrierLabels = ReturnType<typeof createCarrierLabels>;
