/** Label media, kept apart from the renderer so choosing one does not load pdf-lib and bwip-js. */
export interface LabelMedia {
  /** Page size in PDF points (72 per inch): 4×6 in = 288×432 (hardware.md §3.7). */
  widthPt: number;
  heightPt: number;
  /** Printer resolution: one barcode PNG pixel is placed on one printer dot (hardware.md §3.7). */
  dpi: number;
}

export const MEDIA_4X6: LabelMedia = { widthPt: 288, heightPt: 432, dpi: 203 };
export const MEDIA_A6: LabelMedia = { widthPt: 297.64, heightPt: 419.53, dpi: 203 };
