import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb } from "pdf-lib";
import type { LabelData } from "../domain/label-data.js";
import type { LabelFonts } from "./label-fonts.js";
import { checkLabelScripts, labelText } from "./label-scripts.js";
import { ellipsize, fitAddress, LEADING, type Measure, wrapText } from "./label-text.js";
import type { LabelMedia } from "./media.js";
import { dataMatrixPng, olpnBarcode, pngSize } from "./olpn-barcode.js";

/**
 * The pick+pack shipping label (docs/architecture.md#pick-and-pack): data and font bytes in, PDF bytes
 * out; no IO, no clock (the print time is an input). Text is set in DejaVu Sans, embedded as a subset
 * (docs/decisions.md#label-scripts); a label that cannot be printed whole throws, in words, and the
 * caller shows why (docs/station.md#shipping-labels-pickpack). Barcodes come from bwip-js as PNG, one
 * pixel per printer dot (docs/hardware.md#label-printers).
 */
export type { LabelData } from "../domain/label-data.js";
export type { LabelFonts } from "./label-fonts.js";
export { type LabelMedia, MEDIA_4X6, MEDIA_A6 } from "./media.js";

const MARGIN = 14;
const MM = 72 / 25.4;
const BLACK = rgb(0, 0, 0);
/** Facts (order, box, carrier label) and item lines. */
const SMALL = 8;
const SMALL_LEADING = SMALL * LEADING;
/** Label column of the facts. */
const FACT_LABEL = 68;

/** The glyphs each font file has, computed once per file. */
const glyphSets = new WeakMap<Uint8Array, ReadonlySet<number>>();

function glyphsOf(bytes: Uint8Array, font: PDFFont): ReadonlySet<number> {
  let set = glyphSets.get(bytes);
  if (!set) {
    set = new Set(font.getCharacterSet());
    glyphSets.set(bytes, set);
  }
  return set;
}

/** One item line, "qty × description (SKU)": the description is cut first, so the SKU stays whole. */
function itemLine(measure: Measure, l: LabelData["lines"][number], width: number): string {
  const head = `${l.quantity} × `;
  const tail = l.description ? ` (${labelText(l.product)})` : labelText(l.product);
  const full = `${head}${l.description ? labelText(l.description) : ""}${tail}`;
  if (measure(full, SMALL) <= width || !l.description) return ellipsize(measure, full, SMALL, width);
  const room = width - measure(head + tail, SMALL);
  if (room < measure("Wxyz…", SMALL)) return ellipsize(measure, full, SMALL, width);
  return `${head}${ellipsize(measure, labelText(l.description), SMALL, room)}${tail}`;
}

/**
 * The order and box facts: a label and up to two lines each, the rest cut with "…". The carrier's
 * label URL is not printed: the carrier's own label is (docs/station.md#carrier-labels).
 */
function factLines(data: LabelData, measure: Measure, width: number): Array<[string, string[]]> {
  const facts: Array<[string, string | undefined]> = [
    ["Order", data.orderNumber ?? data.externalServiceRequestId],
    ["Box", [data.packingBoxId, data.packingBoxType].filter(Boolean).join(" / ") || undefined],
  ];
  return facts.flatMap(([k, v]): Array<[string, string[]]> => {
    if (!v) return [];
    const lines = wrapText(measure, labelText(v), SMALL, width);
    if (lines.length <= 2) return [[k, lines]];
    return [[k, [lines[0] as string, ellipsize(measure, lines.slice(1).join(""), SMALL, width)]]];
  });
}

interface Drawing {
  page: PDFPage;
  media: LabelMedia;
  /** One printer dot in points. */
  dot: number;
}

/** Places an image with its top-left corner on a printer dot, so one PNG pixel is one dot. */
function drawOnDots(
  d: Drawing,
  img: PDFImage,
  xDots: number,
  topPt: number,
  widthDots: number,
  heightPt: number,
) {
  const topDots = Math.round((d.media.heightPt - topPt) / d.dot);
  d.page.drawImage(img, {
    x: xDots * d.dot,
    y: d.media.heightPt - topDots * d.dot - heightPt,
    width: widthDots * d.dot,
    height: heightPt,
  });
}

export async function renderShippingLabel(
  data: LabelData,
  media: LabelMedia,
  fonts: LabelFonts,
): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  pdf.setTitle(`Shipping label ${data.olpn}`);
  pdf.setCreator("pps-edge");
  pdf.setCreationDate(new Date(data.printedAt));
  pdf.setModificationDate(new Date(data.printedAt));
  // a fixed subset name keeps the same label the same bytes (pdf-lib would add a random suffix)
  const regular = await pdf.embedFont(fonts.regular, { subset: true, customName: "PPSLBA+DejaVuSans" });
  const bold = await pdf.embedFont(fonts.bold, { subset: true, customName: "PPSLBB+DejaVuSans-Bold" });
  const glyphs = glyphsOf(fonts.regular, regular);
  checkLabelScripts(data, (cp) => glyphs.has(cp));

  const dot = 72 / media.dpi;
  const headDots = Math.min(media.printableDots ?? Number.POSITIVE_INFINITY, Math.floor(media.widthPt / dot));
  const barcode = await olpnBarcode(data.olpn, headDots);
  const page = pdf.addPage([media.widthPt, media.heightPt]);
  const d: Drawing = { page, media, dot };
  const measure: Measure = (s, size) => regular.widthOfTextAtSize(s, size);
  const width = headDots * dot;
  const inner = width - 2 * MARGIN;
  const text = (s: string, x: number, y: number, size: number, font = regular) =>
    page.drawText(s, { x, y, size, font, color: BLACK });

  // the fixed parts, from the top: heading, (address), rule, facts, barcode; from the bottom: footer,
  // items beside the DataMatrix; the address gets what is left, the items whatever it does not use
  const facts = factLines(data, measure, inner - FACT_LABEL);
  const factsHeight = 10 + facts.reduce((n, [, v]) => n + v.length, 0) * (SMALL_LEADING + 1);
  const barHeight = (barcode.symbol.kind === "sscc" ? 32 : 22) * MM;
  const barcodeBlock = 8 + barHeight + 4 + 9 + 8;
  const dmPng = await dataMatrixPng(`${data.olpn}|${data.externalServiceRequestId}`, 4);
  const dm = pngSize(dmPng);
  const dmPt = dm.height * dot;
  const footer = 10;
  const itemsMin = Math.max(dmPt, 11 + 3 * SMALL_LEADING);
  const top = media.heightPt - MARGIN;
  const addressRoom = top - 13 - 6 - factsHeight - barcodeBlock - itemsMin - footer - MARGIN;
  const address = data.shippingAddress ? labelText(data.shippingAddress) : "(no address given)";
  const fit = fitAddress(measure, address, inner, addressRoom);
  if (!fit.ok) throw new Error(fit.reason);

  let y = top - 9;
  text("SHIP TO", MARGIN, y, 9, bold);
  y -= 4;
  for (const line of fit.lines) {
    y -= fit.size * LEADING;
    text(line, MARGIN, y + fit.size * (LEADING - 1), fit.size);
  }
  y -= 6;
  page.drawLine({ start: { x: MARGIN, y }, end: { x: width - MARGIN, y }, thickness: 1, color: BLACK });
  y -= 10;
  for (const [k, values] of facts) {
    for (const [i, v] of values.entries()) {
      y -= SMALL_LEADING + 1;
      if (i === 0) text(`${k}:`, MARGIN, y + 2, SMALL, bold);
      text(v, MARGIN + FACT_LABEL, y + 2, SMALL);
    }
  }

  // the OLPN across the head, centred: at least 10 modules clear on each side (olpn-symbol.ts)
  y -= 8;
  const code = await pdf.embedPng(barcode.png);
  drawOnDots(d, code, Math.floor((headDots - barcode.widthDots) / 2), y, barcode.widthDots, barHeight);
  y -= barHeight + 4 + 9;
  const human = barcode.symbol.human;
  text(human, (width - measure(human, 9)) / 2, y + 2, 9);

  const matrix = await pdf.embedPng(dmPng);
  const dmX = headDots - Math.round(MARGIN / dot) - dm.width;
  drawOnDots(d, matrix, dmX, MARGIN + footer + dmPt, dm.width, dmPt);

  const itemsTop = y - 8;
  const itemsWidth = dmX * dot - MARGIN - 8;
  const units = data.lines.reduce((n, l) => n + l.quantity, 0);
  let iy = itemsTop - 9;
  text(`${units} ${units === 1 ? "item" : "items"}`, MARGIN, iy, 9, bold);
  const rows = Math.floor((iy - 2 - (MARGIN + footer)) / SMALL_LEADING);
  const shown = data.lines.length <= rows ? data.lines : data.lines.slice(0, Math.max(0, rows - 1));
  for (const l of shown) {
    iy -= SMALL_LEADING;
    text(itemLine(measure, l, itemsWidth), MARGIN, iy, SMALL);
  }
  const more = data.lines.length - shown.length;
  if (more > 0)
    text(`+ ${more} more ${more === 1 ? "line" : "lines"}`, MARGIN, iy - SMALL_LEADING, SMALL, bold);

  text(`Packed at ${labelText(data.station)}  ${data.printedAt}`, MARGIN, MARGIN, 7);
  return pdf.save();
}
