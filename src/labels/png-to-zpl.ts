/**
 * A carrier's PNG label for a printer that takes ZPL (docs/decisions.md#carrier-label-conversions): the
 * image thresholded to one bit a pixel and sent as one `^GFA` graphic field at the label's home, one
 * pixel a printer dot when it fits the label (a carrier's PNG for a thermal printer is made at its
 * resolution); a landscape image is turned, a larger one (a 300 dpi label for a 203 dpi printer) scaled
 * down to the label's dots. Pure.
 */
import type { LabelMedia } from "./media.js";
import { decodePng, fitToDots, toOneBit } from "./png-raster.js";

/** `^GFA,<total bytes>,<total bytes>,<bytes a row>,<hex>`: ZPL's graphic field in ASCII hex. */
export function graphicField(bits: Uint8Array, bytesPerRow: number): string {
  return `^GFA,${bits.length},${bits.length},${bytesPerRow},${Buffer.from(bits).toString("hex").toUpperCase()}`;
}

/** The label's size in the printer's dots: 4×6 in at 203 dpi is 812×1218. */
export const labelDots = (media: LabelMedia) => ({
  width: Math.round((media.widthPt / 72) * media.dpi),
  height: Math.round((media.heightPt / 72) * media.dpi),
});

/** The whole label: one format (`^XA`…`^XZ`) printing the image at 0,0. */
export function pngToZpl(png: Uint8Array, media: LabelMedia, threshold = 128): string {
  const dots = labelDots(media);
  const img = fitToDots(decodePng(png), dots.width, dots.height);
  const { bytesPerRow, bits } = toOneBit(img, threshold);
  return `^XA\n^LH0,0\n^FO0,0${graphicField(bits, bytesPerRow)}^FS\n^XZ\n`;
}
