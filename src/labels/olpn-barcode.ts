import bwipjs from "bwip-js";
import { dotsPerModule, HEAD_DOTS, type OlpnSymbol, olpnFault, olpnSymbol } from "../domain/olpn-symbol.js";

/**
 * The label's barcodes as PNG, one pixel per printer dot (docs/hardware.md#label-printers): the OLPN as
 * GS1-128 (an SSCC-18) or Code 128 (domain/olpn-symbol.ts chooses), as wide as the print head allows,
 * and the DataMatrix beside it. Pure: text in, image bytes out.
 */

/** The widest bar: GS1's largest X-dimension for logistic labels is 1.016 mm, 8 dots at 203 dpi. */
export const MAX_DOTS_PER_MODULE = 8;

export interface OlpnBarcode {
  symbol: OlpnSymbol;
  /** Bars only, no quiet zone: the layout keeps 10 modules clear on each side. */
  png: Buffer;
  dotsPerModule: number;
  /** The bars' width in dots (the PNG's width). */
  widthDots: number;
}

/**
 * The OLPN's barcode at the largest whole number of dots per module that fits `dots` with its quiet
 * zones; throws, in words, when the OLPN cannot be printed (the create check refuses those first).
 */
export async function olpnBarcode(olpn: string, dots = HEAD_DOTS): Promise<OlpnBarcode> {
  const fault = olpnFault(olpn, dots);
  if (fault) throw new Error(`the OLPN '${olpn}' ${fault}`);
  const symbol = olpnSymbol(olpn);
  const dpm = Math.min(dotsPerModule(symbol, dots), MAX_DOTS_PER_MODULE);
  // one row of bars, stretched to its height by the layout: a 1-D symbol's bars are columns
  const png = await bwipjs.toBuffer({
    bcid: symbol.bcid,
    text: symbol.text,
    scaleX: dpm,
    scaleY: 1,
    height: 1,
  });
  return { symbol, png, dotsPerModule: dpm, widthDots: png.readUInt32BE(16) };
}

/**
 * A DataMatrix of `text` at `dotsPerModule` dots per module (its own quiet zone is left by the layout).
 * A DataMatrix's bytes are read as ISO 8859-1 unless an ECI says otherwise: text beyond it goes as UTF-8
 * behind ECI 000026 (ISO/IEC 16022, extended channel interpretation; docs/hardware.md#label-printers).
 */
export function dataMatrixPng(text: string, dotsPerModule: number): Promise<Buffer> {
  if ([...text].every((ch) => (ch.codePointAt(0) as number) <= 0xff))
    return bwipjs.toBuffer({ bcid: "datamatrix", text, scale: dotsPerModule });
  // with parsefnc a caret is a function character: a caret of the text is written twice
  const bytes = Buffer.from(text, "utf8").toString("latin1").replace(/\^/g, "^^");
  return bwipjs.toBuffer({
    bcid: "datamatrix",
    text: `^ECI000026${bytes}`,
    parsefnc: true,
    scale: dotsPerModule,
  });
}

/** The width and height in pixels of a PNG (its IHDR). */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}
