import UPNG from "@pdf-lib/upng";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { MEDIA_4X6, MEDIA_A6 } from "../../../src/labels/media.js";
import { decodePng, fitToDots, toOneBit } from "../../../src/labels/png-raster.js";
import { placement, pngToPdf } from "../../../src/labels/png-to-pdf.js";
import { pngToZpl } from "../../../src/labels/png-to-zpl.js";
import { pngLabel } from "../../support/carrier-label-server.js";

const lib = (UPNG as unknown as { default?: typeof UPNG }).default ?? UPNG;

/** A 10×3 RGBA PNG from a picture: `#` black, `.` white, `g` mid grey (dark), `l` light grey, `t` transparent. */
function png(rows: string[]): Uint8Array {
  const w = rows[0]?.length ?? 0;
  const rgba = new Uint8Array(w * rows.length * 4);
  const px: Record<string, number[]> = {
    "#": [0, 0, 0, 255],
    ".": [255, 255, 255, 255],
    g: [100, 100, 100, 255],
    l: [200, 200, 200, 255],
    t: [0, 0, 0, 0],
  };
  for (const [y, r] of rows.entries())
    for (const [x, c] of [...r].entries()) rgba.set(px[c] as number[], (y * w + x) * 4);
  return new Uint8Array(lib.encode([rgba.buffer], w, rows.length, 0));
}

describe("a PNG as ZPL", () => {
  it("thresholds each pixel to one bit, leftmost in the highest bit, transparency as white", () => {
    const image = png(["#.#.#.#.#.", "gl.t######", ".........#"]);
    const { bytesPerRow, bits } = toOneBit(decodePng(image));
    expect(bytesPerRow).toBe(2);
    expect([...bits]).toEqual([0b10101010, 0b10000000, 0b10001111, 0b11000000, 0, 0b01000000]);
  });

  it("is one format with one ^GFA field of the image's rows", () => {
    const zpl = pngToZpl(png(["##........", "........##", ...new Array(8).fill("..........")]), MEDIA_4X6);
    expect(zpl).toBe(`^XA\n^LH0,0\n^FO0,0^GFA,20,20,2,C00000C0${"0".repeat(32)}^FS\n^XZ\n`);
  });

  it("keeps a 4×6 label at 203 dpi dot for dot (812 dots wide, 1218 rows)", () => {
    const zpl = pngToZpl(pngLabel(), MEDIA_4X6);
    const field = /\^GFA,(\d+),(\d+),(\d+),([0-9A-F]+)\^FS/.exec(zpl);
    // 812 dots are 101.5 bytes: each row is 102 bytes, the last half byte white
    expect(field?.slice(1, 4)).toEqual(["124236", "124236", "102"]);
    const hex = field?.[4] ?? "";
    expect(hex).toHaveLength(124236 * 2);
    // row 10: the black bar from dot 10 to 409 (dots 8–15 are the second byte: 00111111)
    const row10 = hex.slice(10 * 204, 11 * 204);
    expect(row10.slice(0, 6)).toBe("003FFF");
    expect(hex.slice(0, 204)).toBe("0".repeat(204));
  });

  it("scales a larger label down to the label's dots, and turns a landscape one", () => {
    // 4×6 at 300 dpi for a 203 dpi printer: 1200×1800 pixels onto 812×1218 dots
    const big = /\^GFA,(\d+),\d+,(\d+),/.exec(pngToZpl(pngLabel(1200, 1800, 300), MEDIA_4X6));
    expect(big?.slice(1, 3)).toEqual([String(102 * 1218), "102"]);
    const img = decodePng(png(["##..", "...."]));
    const turned = fitToDots(img, 2, 4);
    expect([turned.width, turned.height]).toEqual([2, 4]);
    // the left column (#, .) is the top row, read right to left: . #
    expect([...toOneBit(turned).bits]).toEqual([0b01000000, 0b01000000, 0, 0]);
    // a 4×4 block of black scaled to 2×2 stays black; half black averages to grey, thresholded white
    const half = fitToDots(decodePng(png(["####", "####", "....", "...."])), 2, 2);
    expect([...toOneBit(half).bits]).toEqual([0b11000000, 0]);
  });

  it("refuses bytes that are not a PNG, in words", () => {
    expect(() => pngToZpl(new Uint8Array([1, 2, 3]), MEDIA_4X6)).toThrow(
      /^the carrier's PNG could not be read/,
    );
  });
});

describe("a PNG as a PDF page", () => {
  it("places a 4×6 label at 203 dpi on a 4×6 page unscaled, and reads its resolution", () => {
    const info = decodePng(pngLabel());
    expect(info).toMatchObject({ width: 812, height: 1218, dpi: 203 });
    const p = placement(info, MEDIA_4X6);
    expect(p.scale).toBe(1);
    expect(p.turned).toBe(false);
    expect(p.width).toBeCloseTo(288, 0);
    expect(p.height).toBeCloseTo(432, 0);
  });

  it("turns a landscape label, shrinks a larger one, and never enlarges a smaller one", () => {
    expect(placement({ width: 1218, height: 812, dpi: 203 }, MEDIA_4X6)).toMatchObject({
      turned: true,
      scale: 1,
    });
    // 4×6 at 300 dpi without pHYs: read at the printer's 203 dpi it is too big, shrunk to the page
    const big = placement({ width: 1200, height: 1800 }, MEDIA_4X6);
    expect(big.width).toBeCloseTo(288, 0);
    expect(big.scale).toBeLessThan(1);
    expect(placement({ width: 406, height: 406, dpi: 203 }, MEDIA_4X6)).toMatchObject({
      width: 144,
      scale: 1,
    });
    // on A6 (419.5 pt high) a 4×6 label (432 pt) is shrunk a little
    expect(placement({ width: 812, height: 1218, dpi: 203 }, MEDIA_A6).scale).toBeCloseTo(0.972, 2);
  });

  it("is one page of the media's size holding the image", async () => {
    const pdf = await PDFDocument.load(await pngToPdf(pngLabel(), MEDIA_4X6));
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getPage(0).getSize()).toEqual({ width: 288, height: 432 });
    const text = Buffer.from(await pdf.save({ useObjectStreams: false })).toString("latin1");
    expect(text).toMatch(/\/Subtype \/Image/);
    expect(text).toMatch(/\/Width 812/);
  });
});
