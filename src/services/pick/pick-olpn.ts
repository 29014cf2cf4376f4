import { AppError, type FieldError } from "../../domain/errors.js";
import { olpnRefusal } from "../../domain/olpn-symbol.js";
import type { PickDeps } from "./pick-deps.js";

/**
 * When the agent prints the labels (`printing.mode: station`), a pick+pack line's `packing_box_id` is
 * the OLPN its label carries as a barcode: one the label cannot carry is a 400 naming the line's field
 * before anything is written (docs/decisions.md#olpn-length-on-the-agents-label). With external
 * printing the OLPN is central's business and is not checked.
 */
export function checkOlpns(
  deps: PickDeps,
  lines: ReadonlyArray<{ attributes?: Record<string, unknown> | null | undefined }>,
  isPack: boolean,
): void {
  if (!deps.stationPrinting || !isPack) return;
  const errors: FieldError[] = [];
  lines.forEach((line, i) => {
    const olpn = line.attributes?.packing_box_id;
    if (typeof olpn !== "string") return;
    const refusal = olpnRefusal(olpn);
    if (refusal)
      errors.push({
        path: `serviceRequests.${i}.attributes.packing_box_id`,
        message: `the OLPN '${olpn}' ${refusal} (the station prints the labels: printing.mode station)`,
      });
  });
  const [first] = errors;
  if (first) throw new AppError("validation_failed", `${first.path}: ${first.message}`, errors);
}
