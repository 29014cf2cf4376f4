import pino from "pino";
import { describe, expect, it } from "vitest";
import type {
  LabelDocument,
  LabelFormat,
  PrintJob,
} from "../../../src/devices/drivers/label-printer/label-printer.js";
import type { LabelData } from "../../../src/domain/label-data.js";
import type { FetchedLabel } from "../../../src/labels/carrier-label-fetch.js";
import { createCarrierLabels } from "../../../src/labels/carrier-label-job.js";
import { MEDIA_4X6 } from "../../../src/labels/media.js";
import { pngLabel, ZPL_LABEL } from "../../support/carrier-label-server.js";

const data = {
  externalServiceRequestId: "O1",
  olpn: "BOX-1",
  station: "1/1",
  lines: [],
  printedAt: "2026-11-21T10:00:00.000Z",
  carrierLabelUrl: "https://labels.carrier.example/1",
} satisfies LabelData;

function station(accepts: LabelFormat[], served: FetchedLabel, packingSlip = false) {
  const printed: Array<{ doc: LabelDocument; job: PrintJob }> = [];
  let fetches = 0;
  const labels = createCarrierLabels({
    fetch: async () => {
      fetches++;
      return served;
    },
    printer: { accepts, print: async (doc, job) => void printed.push({ doc, job }) },
    media: MEDIA_4X6,
    packingSlip,
    log: pino({ level: "silent" }),
  });
  return { labels, printed, fetches: () => fetches };
}

const fetched = (format: LabelFormat, bytes: Uint8Array): FetchedLabel => ({
  format,
  bytes,
  host: "labels.carrier.example",
  status: 200,
  ms: 1,
});

describe("the carrier's label at the printer", () => {
  it("sends a PNG to a ZPL printer as a ^GFA graphic", async () => {
    const s = station(["zpl"], fetched("png", pngLabel()));
    await s.labels.print(data, { name: "BOX-1-O1" }, async () => {});
    expect(s.printed).toHaveLength(1);
    expect(s.printed[0]?.doc.format).toBe("zpl");
    expect(Buffer.from(s.printed[0]?.doc.bytes ?? []).toString("latin1")).toMatch(
      /^\^XA\n\^LH0,0\n\^FO0,0\^GFA,124236,124236,102,/,
    );
  });

  it("refuses ZPL for a PDF printer and PDF for a ZPL printer, printing nothing", async () => {
    const zpl = station(["pdf"], fetched("zpl", Buffer.from(ZPL_LABEL)));
    await expect(zpl.labels.print(data, { name: "j" }, async () => {})).rejects.toThrow(
      "the carrier served ZPL; the printer at this station takes PDF",
    );
    const pdf = station(["zpl"], fetched("pdf", Buffer.from("%PDF-1.7")));
    await expect(pdf.labels.print(data, { name: "j" }, async () => {})).rejects.toThrow(
      "the carrier served PDF; the printer at this station takes ZPL",
    );
    expect([...zpl.printed, ...pdf.printed]).toEqual([]);
  });

  it("with a packing slip that failed, a reprint prints only the slip: never the carrier's label twice", async () => {
    const s = station(["pdf"], fetched("pdf", Buffer.from("%PDF-1.7")), true);
    const slips: string[] = [];
    let slipFails = true;
    const own = async (job: PrintJob) => {
      if (slipFails) throw new Error("out of paper");
      slips.push(job.name);
    };
    await expect(s.labels.print(data, { name: "BOX-1-O1" }, own)).rejects.toThrow(
      "the carrier's label printed; the packing slip did not: out of paper",
    );
    slipFails = false;
    await s.labels.print(data, { name: "BOX-1-O1" }, own);
    expect(s.printed.map((p) => p.job.name)).toEqual(["BOX-1-O1"]);
    expect(s.fetches()).toBe(1);
    expect(slips).toEqual(["BOX-1-O1-slip"]);
    // a later print of the same job is whole again
    await s.labels.print(data, { name: "BOX-1-O1" }, own);
    expect(s.printed).toHaveLength(2);
  });
});
