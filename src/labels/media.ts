/** Label media, kept apart from the renderer so choosing one does not load pdf-lib and bwip-js. */
export interface LabelMedia {
  /** Page size in PDF points (72 per inch): 4×6 in = 288×432 (hardware.md §3.7). */
  widthPt: number;
  heightPt: number;
  /** Printer resolution: one barcode PNG pixel is placed on one printer dot (hardware.md §3.7). */
  dpi: number;
  /**
   * Dots across that the head prints, from the left edge; nothing is laid out beyond them. Default: the
   * page's width. A6 (105 mm, 837 dots) on a 4-inch head (812 dots): docs/hardware.md#label-printers.
   */
  printableDots?: number;
}

export const MEDIA_4X6: LabelMedia = { widthPt: 288, heightPt: 432, dpi: 203, printableDots: 812 };
export const MEDIA_A6: LabelMedia = { widthPt: 297.64, heightPt: 419.53, dpi: 203, printableDots: 812 };
