/**
 * How a carrier's label reaches the station's printer (docs/decisions.md#carrier-label-conversions):
 * in the format it was served when that is the printer's own (its first accepted format) or one it also
 * accepts; a PNG, an image rather than a print language, drawn in the printer's own format (a PDF page,
 * a ZPL graphic); PDF and ZPL are never turned into each other, so such a pair is refused in words. Pure.
 */
import type { LabelFormat } from "../devices/drivers/label-printer/label-printer.js";

export type Conversion = "as-is" | "png-to-pdf" | "png-to-zpl";

const NAMES: Record<LabelFormat, string> = { pdf: "PDF", zpl: "ZPL", png: "PNG" };

export function conversionFor(
  served: LabelFormat,
  accepts: readonly LabelFormat[],
): { conversion: Conversion } | { refused: string } {
  const own = accepts[0];
  if (served === own) return { conversion: "as-is" };
  if (served === "png" && own === "pdf") return { conversion: "png-to-pdf" };
  if (served === "png" && own === "zpl") return { conversion: "png-to-zpl" };
  if (accepts.includes(served)) return { conversion: "as-is" };
  const takes = accepts.map((f) => NAMES[f]).join(" or ");
  return { refused: `the carrier served ${NAMES[served]}; the printer at this station takes ${takes}` };
}
