import { readFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * The label's font files (docs/hardware.md#label-printers): DejaVu Sans, regular and bold, from Debian's
 * fonts-dejavu-core (a dependency of the package). Read once and kept: the renderer is handed the
 * bytes and reads no file itself.
 */
export interface LabelFonts {
  regular: Uint8Array;
  bold: Uint8Array;
}

export const DEJAVU_DIR = "/usr/share/fonts/truetype/dejavu";
const FILES = { regular: "DejaVuSans.ttf", bold: "DejaVuSans-Bold.ttf" } as const;

const loaded = new Map<string, Promise<LabelFonts>>();

async function read(dir: string, file: string): Promise<Uint8Array> {
  const path = join(dir, file);
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === "ENOENT" ? "is missing" : "cannot be read";
    throw new Error(
      `the label font ${path} ${why}: install Debian's fonts-dejavu-core (apt-get install fonts-dejavu-core)`,
      { cause: err },
    );
  }
}

/** The label fonts from `dir`, read on first use; a failed read is not kept, so it is tried again. */
export function labelFonts(dir = DEJAVU_DIR): Promise<LabelFonts> {
  let fonts = loaded.get(dir);
  if (!fonts) {
    fonts = Promise.all([read(dir, FILES.regular), read(dir, FILES.bold)]).then(([regular, bold]) => ({
      regular,
      bold,
    }));
    loaded.set(dir, fonts);
    fonts.catch(() => loaded.delete(dir));
  }
  return fonts;
}
