/**
 * A carrier's PNG label for a printer that takes ZPL (docs/decisions.md#carrier-label-conversions): the
 * image thresholded to one bit a pixel and sent as one `^GFA` graphic field at the label's home, one
 * pixel a printer dot (no scaling: a carrier's PNG for a thermal printer is made at its resolution).
 * Pure.
 */
import { decodePng, toOneBit } from "./png-raster.js";

/** `^GFA,<total bytes>,<total bytes>,<bytes a row>,<hex>`: ZPL's graphic field in ASCII hex. */
export function graphicField(bits: Uint8Array, bytesPerRow: number): string {
  return `^GFA,${bits.length},${bits.length},${bytesPerRow},${Buffer.from(bits).toString("hex").toUpperCase()}`;
}

/** The whole label: one format (`^XA`…`^XZ`) printing the image at 0,0. */
export function pngToZpl(png: Uint8Array, threshold = 128): string {
  const img = decodePng(png);
  const { bytesPerRow, bits } = toOneBit(img, threshold);
  return `^XA\n^LH0,0\n^FO0,0${graphicField(bits, bytesPerRow)}^FS\n^XZ\n`;
}
