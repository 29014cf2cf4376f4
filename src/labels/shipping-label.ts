import bwipjs from "bwip-js";
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib";
import type { LabelData } from "../domain/label-data.js";
import { type LabelMedia, MEDIA_4X6 } from "./media.js";

/**
 * The pick+pack shipping label (docs/architecture.md#pick-and-pack): data in, PDF bytes out; no IO, no clock
 * (the print time is an input). Barcodes come from bwip-js as PNG because pdf-lib draws none
 * (hardware.md §0.5, §3.7).
 */
export type { LabelData } from "../domain/label-data.js";
export { type LabelMedia, MEDIA_4X6, MEDIA_A6 } from "./media.js";

const MARGIN = 14;

/**
 * The standard PDF fonts encode WinAnsi only (hardware.md §0.5): a character they cannot draw is
 * printed as '?' rather than failing the whole label.
 */
export function printable(font: PDFFont, text: string): string {
  let out = "";
  for (const ch of text.replace(/[\r\t]/g, " ")) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += "?";
    }
  }
  return out;
}

function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const para of text.split("\n").map((p) => printable(font, p))) {
    let line = "";
    for (const word of para.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
      else {
        lines.push(line);
        line = word;
      }
    }
    lines.push(line);
  }
  return lines;
}

async function barcodePng(text: string, bcid: "code128" | "datamatrix", moduleDots: number): Promise<Buffer> {
  if (bcid === "datamatrix") return bwipjs.toBuffer({ bcid, text, scale: moduleDots });
  return bwipjs.toBuffer({
    bcid,
    text,
    scale: moduleDots,
    height: 18,
    includetext: true,
    textxalign: "center",
    textsize: 9,
  });
}

function text(page: PDFPage, font: PDFFont, s: string, x: number, y: number, size: number): void {
  page.drawText(printable(font, s), { x, y, size, font, color: rgb(0, 0, 0) });
}

export async function renderShippingLabel(
  data: LabelData,
  media: LabelMedia = MEDIA_4X6,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Shipping label ${data.olpn}`);
  pdf.setCreator("pps-edge");
  pdf.setCreationDate(new Date(data.printedAt));
  pdf.setModificationDate(new Date(data.printedAt));
  const page = pdf.addPage([media.widthPt, media.heightPt]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const inner = media.widthPt - 2 * MARGIN;
  let y = media.heightPt - MARGIN - 12;

  text(page, bold, "SHIP TO", MARGIN, y, 11);
  y -= 16;
  for (const line of wrap(regular, data.shippingAddress ?? "(no address given)", 12, inner).slice(0, 6)) {
    text(page, regular, line, MARGIN, y, 12);
    y -= 15;
  }
  y -= 4;
  page.drawLine({ start: { x: MARGIN, y }, end: { x: media.widthPt - MARGIN, y }, thickness: 1 });
  y -= 14;
  const facts: Array<[string, string | undefined]> = [
    ["Order", data.orderNumber ?? data.externalServiceRequestId],
    ["Box", [data.packingBoxId, data.packingBoxType].filter(Boolean).join(" / ") || undefined],
    ["Carrier label", data.carrierLabelUrl],
  ];
  for (const [k, v] of facts) {
    if (!v) continue;
    text(page, bold, `${k}:`, MARGIN, y, 9);
    for (const line of wrap(regular, v, 9, inner - 70).slice(0, 2)) {
      text(page, regular, line, MARGIN + 70, y, 9);
      y -= 11;
    }
  }

  // OLPN as Code 128, one PNG pixel per printer dot so bars keep their width (hardware.md §3.7).
  const dotsToPt = 72 / media.dpi;
  const code = await pdf.embedPng(await barcodePng(data.olpn, "code128", 3));
  const cw = Math.min(code.width * dotsToPt, inner);
  const ch = code.height * (cw / code.width);
  y -= ch + 8;
  page.drawImage(code, { x: (media.widthPt - cw) / 2, y, width: cw, height: ch });

  const matrix = await pdf.embedPng(
    await barcodePng(`${data.olpn}|${data.externalServiceRequestId}`, "datamatrix", 4),
  );
  const mw = matrix.width * dotsToPt;
  page.drawImage(matrix, {
    x: media.widthPt - MARGIN - mw,
    y: MARGIN,
    width: mw,
    height: matrix.height * dotsToPt,
  });

  let by = MARGIN + 60;
  text(page, bold, `${data.lines.reduce((n, l) => n + l.quantity, 0)} items`, MARGIN, by, 10);
  by -= 12;
  for (const l of data.lines.slice(0, 3)) {
    text(page, regular, `${l.quantity} x ${l.product}`.slice(0, 48), MARGIN, by, 8);
    by -= 10;
  }
  text(page, regular, `Packed at ${data.station}  ${data.printedAt}`, MARGIN, MARGIN, 7);
  return pdf.save();
}
