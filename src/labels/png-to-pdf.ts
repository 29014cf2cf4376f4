/**
 * A carrier's PNG label for a printer that takes PDF (docs/decisions.md#carrier-label-conversions): one
 * page of the station's media with the image on it. The image keeps its physical size (its `pHYs`
 * resolution, else the station's printer resolution), centred, so a 4×6 label made for a 4×6 printer
 * fills the page exactly, unscaled; a landscape image on a portrait page is turned a quarter; an image
 * larger than the page is scaled down to fit, never up. Pure (pdf-lib computes, reads nothing).
 */
import { degrees, PDFDocument } from "pdf-lib";
import type { LabelMedia } from "./media.js";
import { decodePng } from "./png-raster.js";

export interface Placement {
  /** Drawn size on the page, before turning, in points. */
  width: number;
  height: number;
  turned: boolean;
  scale: number;
}

/** Where the image goes: its size in points at its resolution, turned and shrunk to the page if need be. */
export function placement(
  px: { width: number; height: number; dpi?: number | undefined },
  media: LabelMedia,
): Placement {
  const dpi = px.dpi ?? media.dpi;
  const w = (px.width / dpi) * 72;
  const h = (px.height / dpi) * 72;
  const turned = w > h && media.heightPt > media.widthPt;
  const [across, down] = turned ? [h, w] : [w, h];
  // half a point of slack: a 4×6 label at 203 dpi is 812×1218 dots, 287.9×432.0 pt
  const scale = Math.min(1, (media.widthPt + 0.5) / across, (media.heightPt + 0.5) / down);
  return { width: w * scale, height: h * scale, turned, scale };
}

export async function pngToPdf(png: Uint8Array, media: LabelMedia): Promise<Uint8Array> {
  const info = decodePng(png);
  const doc = await PDFDocument.create();
  doc.setProducer("pps-edge");
  const page = doc.addPage([media.widthPt, media.heightPt]);
  const image = await doc.embedPng(png);
  const p = placement(info, media);
  const [across, down] = p.turned ? [p.height, p.width] : [p.width, p.height];
  const x = (media.widthPt - across) / 2;
  const y = (media.heightPt - down) / 2;
  // turned a quarter counter-clockwise about its lower-left corner: moved right by its new width
  if (p.turned)
    page.drawImage(image, { x: x + across, y, width: p.width, height: p.height, rotate: degrees(90) });
  else page.drawImage(image, { x, y, width: p.width, height: p.height });
  return doc.save();
}
