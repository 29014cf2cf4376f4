/**
 * The pick+pack shipping label as ZPL II text for a Zebra on its raw port (docs/hardware.md#zpl-labels):
 * data in, text out; no IO, no clock. The printer draws the barcodes itself (`^BC`, `^BX`), text is UTF-8
 * (`^CI28`) and every field's data is hex-escaped (`^FH`), so an address cannot carry ZPL commands. An
 * address that does not fit is refused in words, never cut (docs/decisions.md#zpl-labels).
 */
import type { LabelDocument } from "../devices/drivers/label-printer/label-printer.js";
import type { LabelData } from "../domain/label-data.js";
import { HEAD_DOTS, isSscc, MIN_DOTS_PER_MODULE } from "../domain/olpn-symbol.js";
import { checkLabelScripts } from "./label-scripts.js";
import type { LabelMedia } from "./media.js";

export interface ZplLabelOptions {
  /**
   * A TrueType font stored on the printer (`E:TT0003M_.TTF`), drawn with `^A@`; none: the resident
   * scalable font `^A0`. UTF-8 text prints only as far as the font has the glyphs
   * (docs/decisions.md#zpl-labels).
   */
  font?: string | undefined;
}

const MARGIN = 30;
/** Code 128 at 3 dots a module decodes at 203 dpi (docs/hardware.md#zpl-labels). */
const MODULE_DOTS = MIN_DOTS_PER_MODULE;
const QUIET_MODULES = 10;
const ADDRESS_FONT = 36;
const ADDRESS_PITCH = 42;
const ADDRESS_TOP = 110;
/** The address area ends above the order block. */
export const ADDRESS_MAX_LINES = 10;
/**
 * What one character takes at a font height, as a share of it: the printer's font metrics are not known
 * here, so the estimate is generous (a condensed Latin glyph ~0.5; a CJK glyph is square).
 */
const NARROW = 0.6;
const WIDE = 1.0;

/** The label's size in dots: as wide as the media, at most the head's width. */
export function labelDots(media: LabelMedia): { width: number; length: number } {
  const width = Math.min(HEAD_DOTS, Math.round((media.widthPt / 72) * media.dpi));
  return { width, length: Math.round((media.heightPt / 72) * media.dpi) };
}

/**
 * Field data for `^FH_^FD`: `_` (the escape), `^` and `~` (ZPL's command characters) and control
 * characters as `_XX`, so data can never end a field or start a command. Other text goes as UTF-8.
 */
export function zplFieldData(text: string): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === "_" || ch === "^" || ch === "~" || code < 0x20 || code === 0x7f)
      out += `_${code.toString(16).toUpperCase().padStart(2, "0")}`;
    else out += ch;
  }
  return out;
}

/**
 * The OLPN's Code 128 data in ZPL's invocation codes (`^BC` mode N), with the subsets chosen here so the
 * width is known: an SSCC as GS1-128 (`>;` start C, `>8` FNC1, AI 00), otherwise subset B with runs of
 * four digits or more in subset C. `symbols`: data symbols with start and check, without the stop.
 */
export function code128Data(olpn: string): { data: string; symbols: number; gs1: boolean } {
  if (isSscc(olpn)) return { data: `>;>800${olpn}`, symbols: 1 + 1 + 10 + 1, gs1: true };
  for (const ch of olpn) {
    const code = ch.codePointAt(0) ?? 0;
    if (code < 0x20 || code > 0x7e)
      throw new Error(`the OLPN ${JSON.stringify(olpn)} has a character a Code 128 barcode cannot hold`);
  }
  const runs = olpn.match(/\d{4,}|\D+|\d{1,3}/g) ?? [];
  let data = "";
  let symbols = 2;
  let set: "B" | "C" | null = null;
  for (const run of runs) {
    if (/^\d{4,}$/.test(run)) {
      const odd = run.length % 2 === 1 ? run.slice(0, 1) : "";
      if (odd) {
        data += set === null ? ">:" : set === "C" ? ">6" : "";
        if (set === "C") symbols++;
        set = "B";
        data += odd;
        symbols++;
      }
      data += set === null ? ">;" : set === "B" ? ">5" : "";
      if (set === "B") symbols++;
      set = "C";
      data += run.slice(odd.length);
      symbols += (run.length - odd.length) / 2;
    } else {
      data += set === null ? ">:" : set === "C" ? ">6" : "";
      if (set === "C") symbols++;
      set = "B";
      // `>` is ZPL's invocation character in ^BC data: a literal one is `><`
      data += run.replace(/>/g, "><");
      symbols += run.length;
    }
  }
  return { data, symbols, gs1: false };
}

const isWide = (ch: string): boolean =>
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u.test(ch) ||
  (ch.codePointAt(0) ?? 0) > 0xffff;

function widthOf(text: string, height: number): number {
  let w = 0;
  for (const ch of text) w += (isWide(ch) ? WIDE : NARROW) * height;
  return w;
}

/** Wraps at spaces within `width` dots; a word longer than a line is broken between characters. */
export function wrapText(text: string, height: number, width: number): string[] {
  const lines: string[] = [];
  for (const para of text.replace(/\r\n?/g, "\n").split("\n")) {
    let line = "";
    for (const word of para.replace(/\t/g, " ").split(" ").filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (widthOf(next, height) <= width) {
        line = next;
        continue;
      }
      if (line) lines.push(line);
      line = "";
      for (const ch of word) {
        if (line && widthOf(line + ch, height) > width) {
          lines.push(line);
          line = "";
        }
        line += ch;
      }
    }
    if (line || para.trim() === "") lines.push(line);
  }
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** One line within `width` dots; a longer text is cut and marked "..." (an item name, not an address). */
function fitLine(text: string, height: number, width: number): string {
  if (widthOf(text, height) <= width) return text;
  let out = "";
  for (const ch of text) {
    if (widthOf(`${out}${ch}...`, height) > width) break;
    out += ch;
  }
  return `${out}...`;
}

/** DataMatrix module size in dots for the data's length, so the symbol stays within ~200 dots square. */
function matrixModule(data: string): number {
  const n = Buffer.byteLength(data, "utf8");
  if (n <= 86) return 5;
  if (n <= 174) return 4;
  if (n <= 280) return 3;
  throw new Error(`the label's DataMatrix would hold ${n} bytes; at most 280 fit on the label`);
}

/**
 * What the resident font `^A0` is sent: the characters of the Windows code pages 1250 to 1254 (Central
 * European, Cyrillic, Western, Greek, Turkish), which the programming guide's `^CI` lists as code pages
 * of the printer's own fonts (docs/decisions.md#zpl-labels); other text needs a font stored on the printer.
 */
const RESIDENT = new Set<number>();
for (const page of ["windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254"]) {
  const decoder = new TextDecoder(page);
  for (let b = 0x20; b <= 0xff; b++) {
    const cp = decoder.decode(Uint8Array.of(b)).codePointAt(0) ?? 0xfffd;
    if (cp !== 0xfffd && b !== 0x7f) RESIDENT.add(cp);
  }
}
const RESIDENT_FONT = (cp: number) => RESIDENT.has(cp);

export function renderZplLabel(data: LabelData, media: LabelMedia, opts: ZplLabelOptions = {}): string {
  // text the printer's font cannot draw is refused in words, as on the PDF label; a named font is the
  // station's word that it has the glyphs, but no ZPL font joins Arabic letters or orders right to left
  checkLabelScripts(data, opts.font ? () => true : RESIDENT_FONT);
  const { width, length } = labelDots(media);
  const inner = width - 2 * MARGIN;
  const font = (h: number) => (opts.font ? `^A@N,${h},${h},${opts.font}` : `^A0N,${h},${h}`);
  const text = (x: number, y: number, h: number, s: string) =>
    `^FO${x},${y}${font(h)}^FH_^FD${zplFieldData(s)}^FS`;
  const out: string[] = ["^XA", "^CI28", `^PW${width}`, `^LL${length}`, "^LH0,0"];
  out.push(text(MARGIN, 20, 26, `${data.station}  ${data.printedAt.slice(0, 16).replace("T", " ")}`));
  out.push(`^FO${MARGIN},56^GB${inner},2,2^FS`, text(MARGIN, 72, 26, "SHIP TO"));
  const address = wrapText(data.shippingAddress ?? "", ADDRESS_FONT, inner);
  if (address.length > ADDRESS_MAX_LINES)
    throw new Error(
      `the shipping address does not fit the label: ${address.length} lines, room for ${ADDRESS_MAX_LINES}`,
    );
  address.forEach((line, i) => {
    out.push(text(MARGIN, ADDRESS_TOP + i * ADDRESS_PITCH, ADDRESS_FONT, line));
  });
  const mid = ADDRESS_TOP + ADDRESS_MAX_LINES * ADDRESS_PITCH + 10;
  out.push(`^FO${MARGIN},${mid}^GB${inner},2,2^FS`);
  const left = 500;
  let y = mid + 16;
  if (data.orderNumber) {
    out.push(text(MARGIN, y, 30, `ORDER ${data.orderNumber}`));
    y += 38;
  }
  if (data.packingBoxType) {
    out.push(text(MARGIN, y, 26, `BOX ${data.packingBoxType}`));
    y += 34;
  }
  const shown = data.lines.slice(0, data.lines.length > 4 ? 3 : 4);
  for (const l of shown) {
    // ASCII "x": the printer's resident font may lack "×"
    out.push(text(MARGIN, y, 26, fitLine(`${l.quantity} x ${l.product}`, 26, left - MARGIN)));
    y += 30;
  }
  if (data.lines.length > shown.length)
    out.push(text(MARGIN, y, 26, `+ ${data.lines.length - shown.length} more lines`));
  const matrix = `${data.olpn}|${data.externalServiceRequestId}`;
  out.push(`^FO${left + 40},${mid + 16}^BXN,${matrixModule(matrix)},200^FH_^FD${zplFieldData(matrix)}^FS`);
  out.push(...olpnBarcode(data.olpn, width, length));
  out.push("^PQ1", "^XZ");
  return `${out.join("\n")}\n`;
}

/** The label as the document a ZPL printer takes: the text as UTF-8 bytes (`^CI28`). */
export function zplLabelDocument(
  data: LabelData,
  media: LabelMedia,
  opts: ZplLabelOptions = {},
): LabelDocument {
  return { format: "zpl", bytes: Buffer.from(renderZplLabel(data, media, opts), "utf8") };
}

/** The OLPN's barcode across the lower part, 3 dots a module, its human-readable line set by the label. */
function olpnBarcode(olpn: string, width: number, length: number): string[] {
  const code = code128Data(olpn);
  const modules = code.symbols * 11 + 13;
  const needed = (modules + 2 * QUIET_MODULES) * MODULE_DOTS;
  if (needed > width)
    throw new Error(
      `the OLPN '${olpn}' is too long for its barcode: ${modules} modules at ${MODULE_DOTS} dots need ${needed} dots, the label has ${width}`,
    );
  const x = Math.max(QUIET_MODULES * MODULE_DOTS, Math.round((width - modules * MODULE_DOTS) / 2));
  const top = length - 330;
  const hri = code.gs1 ? `(00) ${olpn}` : olpn;
  return [
    `^FO${MARGIN},${top - 40}^GB${width - 2 * MARGIN},2,2^FS`,
    `^FO${MARGIN},${top - 30}^A0N,24,24^FDOLPN^FS`,
    `^BY${MODULE_DOTS}`,
    `^FO${x},${top}^BCN,200,N,N,N,N^FH_^FD${zplFieldData(code.data)}^FS`,
    // 30 dots high: the longest OLPN whose barcode fits (38 digits) fits on one line too
    `^FO${MARGIN},${top + 215}^FB${width - 2 * MARGIN},1,0,C^A0N,30,30^FH_^FD${zplFieldData(hri)}^FS`,
  ];
}
