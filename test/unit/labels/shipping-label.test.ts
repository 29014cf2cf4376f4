import { PDFDict, PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { type LabelFonts, labelFonts } from "../../../src/labels/label-fonts.js";
import {
  type LabelData,
  MEDIA_4X6,
  MEDIA_A6,
  renderShippingLabel,
} from "../../../src/labels/shipping-label.js";

let fonts: LabelFonts;
beforeAll(async () => {
  fonts = await labelFonts();
});
const render = (d: LabelData, media = MEDIA_4X6) => renderShippingLabel(d, media, fonts);

const data: LabelData = {
  externalServiceRequestId: "PP1",
  olpn: "BOX-9",
  orderNumber: "O-1",
  shippingAddress: "Jane Roe\n1 Main Street\n10115 Berlin",
  carrierLabelUrl: "https://carrier.example/label/1",
  packingBoxId: "BOX-9",
  packingBoxType: "S",
  station: "7/3",
  lines: [{ product: "PK", quantity: 2 }],
  printedAt: "2026-11-21T10:00:00.000Z",
};

async function images(pdf: PDFDocument): Promise<Array<{ width: number; height: number }>> {
  const out: Array<{ width: number; height: number }> = [];
  for (const [, obj] of pdf.context.enumerateIndirectObjects()) {
    if (obj instanceof PDFRawStream && obj.dict.get(PDFName.of("Subtype")) === PDFName.of("Image")) {
      out.push({
        width: Number(obj.dict.get(PDFName.of("Width"))?.toString()),
        height: Number(obj.dict.get(PDFName.of("Height"))?.toString()),
      });
    }
  }
  return out;
}

describe("shipping label", () => {
  it("is one 4x6 in page with the OLPN barcode and a data matrix", async () => {
    const bytes = await render(data);
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    expect(pdf.getTitle()).toBe("Shipping label BOX-9");
    // each PNG is embedded with its alpha as a soft mask of the same size: two distinct sizes
    const imgs = await images(pdf);
    expect(new Set(imgs.map((i) => `${i.width}x${i.height}`)).size).toBe(2);
    // Code 128 is wider than tall; the data matrix is square
    expect(imgs.some((i) => i.width > i.height)).toBe(true);
    expect(imgs.some((i) => i.width === i.height)).toBe(true);
  });

  it("renders on A6 and the same data gives the same bytes", async () => {
    const a = await render(data, MEDIA_A6);
    const b = await render(data, MEDIA_A6);
    expect((await PDFDocument.load(a)).getPage(0).getSize()).toEqual({ width: 297.64, height: 419.53 });
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    expect(Buffer.from(a).equals(Buffer.from(await render(data, MEDIA_4X6)))).toBe(false);
  });

  it("refuses, in words naming the field and the script, text the font cannot draw (never '?')", async () => {
    await expect(render({ ...data, shippingAddress: "Zhang Wei\n北京市" })).rejects.toThrow(
      "the shipping address holds Chinese characters (北, 京, 市), which the label cannot print",
    );
    await expect(
      render({ ...data, lines: [{ product: "PK", description: "📦 ok", quantity: 1 }] }),
    ).rejects.toThrow("item line 1's description holds characters the label's font cannot draw (📦)");
  });

  it("embeds DejaVu Sans as a subset, and keeps Straße and Łódź whole", async () => {
    const bytes = await render({ ...data, shippingAddress: "Straße 1\nŁódź" });
    const pdf = await PDFDocument.load(bytes);
    const names: string[] = [];
    for (const [, obj] of pdf.context.enumerateIndirectObjects()) {
      const dict = obj instanceof PDFDict ? obj : undefined;
      if (
        dict?.get(PDFName.of("Type")) === PDFName.of("Font") &&
        dict.get(PDFName.of("Subtype")) === PDFName.of("Type0")
      )
        names.push(String(dict.get(PDFName.of("BaseFont"))));
    }
    expect(names.sort()).toEqual(["/PPSLBA+DejaVuSans", "/PPSLBB+DejaVuSans-Bold"]);
  });

  it("says which font file is missing and which package brings it", async () => {
    await expect(labelFonts("/nonexistent/dejavu")).rejects.toThrow(
      "the label font /nonexistent/dejavu/DejaVuSans.ttf is missing: install Debian's fonts-dejavu-core",
    );
  });

  it("works without optional pick+pack attributes", async () => {
    const bytes = await render({
      externalServiceRequestId: "X",
      olpn: "7-1",
      station: "7/1",
      lines: [],
      printedAt: data.printedAt,
    });
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
  });
});
