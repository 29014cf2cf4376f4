/**
 * A pick modify as a partial update (docs/interface.md "Endpoints" → Modify pick: optional
 * `expectations`, `serviceRequests`, `attributes`; docs/decisions.md). Pure: the caller passes what is
 * stored and what the call gives, and writes what comes back.
 * - Attributes: a member given replaces that member, `null` removes it, members not named are kept;
 *   `attributes: null` removes them all.
 * - Lines: matched by externalServiceRequestId. A known line is changed by the members it gives
 *   (quantity, filters, attributes merged like the root's); an unknown one is added and must be whole;
 *   `productQuantity: 0` removes a known line. Lines not named are kept. At least one line remains.
 */
import type { FieldError } from "./errors.js";

export type Attributes = Record<string, unknown>;

export interface StoredLine {
  externalId: string;
  expected: number;
  filters: string[];
  attributes: Attributes | null;
}

export interface LinePatch {
  externalId: string;
  quantity?: number;
  filters?: string[];
  attributes?: Attributes | null;
}

export interface PlannedLine extends StoredLine {
  origin: "kept" | "changed" | "added";
}

export type LinesPlan =
  | { ok: true; lines: PlannedLine[]; removed: string[] }
  | { ok: false; errors: FieldError[] };

export function mergeAttributes(
  stored: Attributes | null,
  patch: Attributes | null | undefined,
): Attributes | null {
  if (patch === undefined) return stored;
  if (patch === null) return null;
  const out: Attributes = { ...(stored ?? {}) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (v !== undefined) out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

const path = (i: number, rest = "") => `serviceRequests.${i}${rest}`;
const QTY = ".expectations.containers.0.products.0.productQuantity";
const FILTERS = ".expectations.containers.0.products.0.productAttributes.filter_parameters";

/** The request's lines after the modify, in their order (new lines last), or the 400's field errors. */
export function mergeLines(
  stored: readonly StoredLine[],
  patches: readonly LinePatch[] | undefined,
): LinesPlan {
  const lines: PlannedLine[] = stored.map((l) => ({ ...l, origin: "kept" }));
  if (!patches) return { ok: true, lines, removed: [] };
  const errors: FieldError[] = [];
  const removed: string[] = [];
  patches.forEach((p, i) => {
    const at = lines.findIndex((l) => l.externalId === p.externalId);
    const known = lines[at];
    if (p.quantity === 0) {
      if (known) {
        lines.splice(at, 1);
        if (known.origin !== "added") removed.push(known.externalId);
      } else errors.push({ path: path(i, QTY), message: `no line '${p.externalId}' to remove` });
      return;
    }
    if (known) {
      lines[at] = {
        ...known,
        expected: p.quantity ?? known.expected,
        filters: p.filters ?? known.filters,
        attributes: mergeAttributes(known.attributes, p.attributes),
        origin: known.origin === "added" ? "added" : "changed",
      };
      return;
    }
    if (p.quantity === undefined) errors.push({ path: path(i, QTY), message: "a new line needs a quantity" });
    if (p.filters === undefined) errors.push({ path: path(i, FILTERS), message: "a new line needs filters" });
    if (p.quantity !== undefined && p.filters !== undefined) {
      lines.push({
        externalId: p.externalId,
        expected: p.quantity,
        filters: p.filters,
        attributes: mergeAttributes(null, p.attributes),
        origin: "added",
      });
    }
  });
  if (!errors.length && lines.length === 0)
    errors.push({ path: "serviceRequests", message: "a pick request needs at least one pick line" });
  return errors.length ? { ok: false, errors } : { ok: true, lines, removed };
}
