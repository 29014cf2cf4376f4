import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";

/**
 * The label as a shipping desk reads it: the PDF rasterised at the printer's 203 dpi (poppler's
 * pdftoppm), its barcodes decoded by zbar (Code 128, GS1-128) and libdmtx (DataMatrix), its text read
 * back by pdftotext. Debian's poppler-utils, zbar-tools and dmtx-utils (`npm run setup`).
 */
const run = promisify(execFile);

/** Writes the PDF and rasterises its page at `dpi` in black and white; the PNG's path. */
export async function rasterise(dir: string, name: string, pdf: Uint8Array, dpi = 203): Promise<string> {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  await run("pdftoppm", ["-r", String(dpi), "-mono", "-png", "-singlefile", file, join(dir, name)]);
  return join(dir, `${name}.png`);
}

export interface Decoded {
  data: string;
  /** zbar's modifiers: `GS1` when the symbol starts with FNC1 (GS1-128). */
  modifiers: string;
}

/** zbarimg's output, or "" when it finds nothing (it exits 4 then). */
async function zbarimg(args: string[]): Promise<string> {
  const out = await run("zbarimg", ["--nodbus", ...args]).catch((err) => {
    if (err.code === 4) return { stdout: "" };
    throw err;
  });
  return out.stdout;
}

/**
 * Every 1-D symbol zbarimg finds in the image: its data as `--raw` prints it (for GS1-128, the AIs and
 * their values without FNC1), and the modifiers its `--xml` report gives (`GS1`: FNC1 first).
 */
export async function zbar(png: string): Promise<Decoded[]> {
  const raw = (await zbarimg(["--raw", png])).split("\n").filter(Boolean);
  const xml = await zbarimg(["--xml", png]);
  const symbols = [...xml.matchAll(/<symbol ([^>]*)>/g)].map(
    (m) => /modifiers='([^']*)'/.exec(m[1] as string)?.[1] ?? "",
  );
  return raw.map((data, i) => ({ data, modifiers: symbols[i] ?? "?" }));
}

/** The DataMatrix libdmtx reads in the image, as UTF-8 text; "" when none. */
export async function dmtx(png: string): Promise<string> {
  const out = await run("dmtxread", ["-N1", png], { encoding: "buffer" }).catch((err) => {
    if (err.code === 1) return { stdout: Buffer.alloc(0) };
    throw err;
  });
  return out.stdout.toString("utf8");
}

/** The PDF's text as pdftotext reads it, whitespace runs made one space. */
export async function pdfText(dir: string, name: string, pdf: Uint8Array): Promise<string> {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  const out = await run("pdftotext", ["-enc", "UTF-8", file, "-"]);
  return out.stdout.replace(/\s+/g, " ").trim();
}

/** The page rasterised at `dpi` in grey (PGM); the rightmost column holding a dark pixel, -1 when none. */
export async function rightmostInk(
  dir: string,
  name: string,
  pdf: Uint8Array,
  dpi = 203,
): Promise<{ column: number; width: number }> {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  await run("pdftoppm", ["-r", String(dpi), "-gray", "-singlefile", file, join(dir, name)]);
  const pgm = readFileSync(join(dir, `${name}.pgm`));
  // P5 header: magic, width, height, maxval, each followed by whitespace
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 64).toString("latin1"));
  if (!header) throw new Error(`${name}.pgm is not a binary PGM`);
  const [width, height] = [Number(header[1]), Number(header[2])];
  const pixels = pgm.subarray(header[0].length);
  let column = -1;
  for (let y = 0; y < height; y++)
    for (let x = width - 1; x > column; x--) if ((pixels[y * width + x] as number) < 128) column = x;
  return { column, width };
}
