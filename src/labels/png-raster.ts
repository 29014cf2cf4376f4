/**
 * A carrier's PNG label read into what a label printer prints: its size, its resolution when the PNG
 * says it (`pHYs`), and one bit per pixel (black or not), with `@pdf-lib/upng`, the PNG decoder pdf-lib
 * itself embeds PNGs with. Pure.
 */
import upngModule from "@pdf-lib/upng";

type Upng = typeof import("@pdf-lib/upng");
// the package is CommonJS with its functions on `exports.default`: Node's import gives that object as
// the default, a bundler may give the functions themselves
const UPNG: Upng = (upngModule as unknown as { default?: Upng }).default ?? upngModule;

export interface PngImage {
  width: number;
  height: number;
  /** Dots per inch from the PNG's `pHYs` chunk (per metre there), or undefined when it has none. */
  dpi?: number | undefined;
  /** RGBA, 4 bytes a pixel, rows top to bottom. */
  rgba: Uint8Array;
}

export function decodePng(png: Uint8Array): PngImage {
  // a copy of just these bytes: a Node Buffer may be a view into a larger shared pool
  const copy = Uint8Array.prototype.slice.call(png).buffer;
  let img: ReturnType<Upng["decode"]>;
  try {
    img = UPNG.decode(copy);
  } catch (err) {
    throw new Error(`the carrier's PNG could not be read: ${err instanceof Error ? err.message : err}`);
  }
  if (!img.width || !img.height) throw new Error("the carrier's PNG has no pixels");
  const rgba = new Uint8Array(UPNG.toRGBA8(img)[0] as ArrayBuffer);
  const phys = img.tabs.pHYs;
  // pHYs: pixels per unit in x and y, unit 1 = metre (PNG spec §11.3.5.3)
  const dpi = phys && phys[2] === 1 && phys[0] ? Math.round((phys[0] as number) * 0.0254) : undefined;
  return { width: img.width, height: img.height, dpi, rgba };
}

/**
 * One bit a pixel, 1 = black: a pixel is black when its luminance over a white background (its alpha
 * taken into account) is below `threshold` (0–255). Rows of `ceil(width / 8)` bytes, the leftmost pixel
 * in the highest bit, as ZPL's `^GF` takes them.
 */
export function toOneBit(img: PngImage, threshold = 128): { bytesPerRow: number; bits: Uint8Array } {
  const bytesPerRow = Math.ceil(img.width / 8);
  const bits = new Uint8Array(bytesPerRow * img.height);
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      const [r, g, b, a] = [img.rgba[i], img.rgba[i + 1], img.rgba[i + 2], img.rgba[i + 3]] as number[];
      const lum = 0.299 * (r as number) + 0.587 * (g as number) + 0.114 * (b as number);
      const alpha = (a as number) / 255;
      if (lum * alpha + 255 * (1 - alpha) < threshold) {
        const at = y * bytesPerRow + (x >> 3);
        bits[at] = (bits[at] as number) | (0x80 >> (x & 7));
      }
    }
  return { bytesPerRow, bits };
}

/**
 * The image on a label of `maxWidth`×`maxHeight` dots: turned a quarter when it is landscape on a
 * portrait label, and scaled down (each dot the average of the pixels it covers) when larger; an image
 * that fits is returned as it is, dot for dot.
 */
export function fitToDots(img: PngImage, maxWidth: number, maxHeight: number): PngImage {
  const turned = img.width > img.height && maxHeight > maxWidth ? turn(img) : img;
  const scale = Math.min(1, maxWidth / turned.width, maxHeight / turned.height);
  if (scale === 1) return turned;
  const width = Math.max(1, Math.floor(turned.width * scale));
  const height = Math.max(1, Math.floor(turned.height * scale));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const [x0, x1] = [Math.floor(x / scale), Math.min(turned.width, Math.ceil((x + 1) / scale))];
      const [y0, y1] = [Math.floor(y / scale), Math.min(turned.height, Math.ceil((y + 1) / scale))];
      const sum = [0, 0, 0, 0];
      for (let sy = y0; sy < y1; sy++)
        for (let sx = x0; sx < x1; sx++)
          for (let c = 0; c < 4; c++)
            sum[c] = (sum[c] as number) + (turned.rgba[(sy * turned.width + sx) * 4 + c] as number);
      const n = (x1 - x0) * (y1 - y0);
      for (let c = 0; c < 4; c++) rgba[(y * width + x) * 4 + c] = Math.round((sum[c] as number) / n);
    }
  return { width, height, dpi: undefined, rgba };
}

/** Turned a quarter clockwise: the left column becomes the top row. */
function turn(img: PngImage): PngImage {
  const { width: w, height: h } = img;
  const rgba = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const to = (x * h + (h - 1 - y)) * 4;
      rgba.set(img.rgba.subarray((y * w + x) * 4, (y * w + x) * 4 + 4), to);
    }
  return { width: h, height: w, dpi: img.dpi, rgba };
}
