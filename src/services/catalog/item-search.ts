import { setImmediate as nextTurn } from "node:timers/promises";
import { AppError, type ErrorCode, type FieldError } from "../../domain/errors.js";
import { canonicalValue } from "../../domain/item.identity.js";
import type { SearchInput } from "../../domain/item.schema.js";
import { longerThan } from "../../domain/text.js";
import { searchTooBroad } from "../../domain/work-limits.js";
import type { CatalogDeps } from "./catalog-deps.js";

function refuse(code: ErrorCode, errors: FieldError[]): void {
  if (errors.length) throw new AppError(code, `${errors[0]?.path}: ${errors[0]?.message}`, errors);
}

/** A search value is matched against an attribute's text: a string (255 at most), a number or a boolean. */
function valueProblem(v: unknown): string | null {
  if (typeof v === "string") return longerThan(v, 255) ? "at most 255 characters" : null;
  if (typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v))) return null;
  return "a string, a number or a boolean";
}

/**
 * search_v2 ("`operator` supports only `=`"; "`key` must be one of the unique attributes"): the operator
 * is checked first (a list given to `in` is an unsupported operator, not a bad value), then the values,
 * then the keys.
 */
function checkFilters(deps: CatalogDeps, input: SearchInput): void {
  const params = input.filter_params;
  refuse(
    "unsupported_operator",
    params.flatMap((f, i) =>
      f.operator === "="
        ? []
        : [{ path: `filter_params.${i}.operator`, message: `only '=' is supported, got '${f.operator}'` }],
    ),
  );
  refuse(
    "validation_failed",
    params.flatMap((f, i) => {
      const problem = valueProblem(f.value);
      return problem ? [{ path: `filter_params.${i}.value`, message: problem }] : [];
    }),
  );
  refuse(
    "unknown_search_key",
    params.flatMap((f, i) =>
      f.key === "product_sku" || deps.items.isKnownKey(f.key)
        ? []
        : [
            {
              path: `filter_params.${i}.key`,
              message: `'${f.key}' is not a unique attribute of any item schema`,
            },
          ],
    ),
  );
}

/**
 * A search_v2 answer: its size, measured, and its items, each assembled from the stored text only when
 * the answer's client takes it (docs/limits.md#item-documents).
 */
export interface ItemsAnswer {
  /** Each matching item's JSON bytes, in id order; one item is assembled per step. */
  items: Iterable<Buffer>;
  bytes: number;
}

/**
 * The matching items, or a 400 `search_too_broad` when more match than `search.maxResults` or their
 * answer would be over `search.maxAnswerBytes` (docs/decisions.md "Work limits"): a client never gets
 * a cut list it could take for the whole. The answer is measured first from each item's size kept
 * when it was written (an item written before sizes were kept is measured by SQLite, assembled from
 * the stored text and never handed over, each on its own turn of the event loop); then each item is
 * assembled as the client takes the one before it, so an
 * answer holds one item at a time on the station, however large it is and however slowly it is read
 * (docs/limits.md#slow-readers). The items come from the unique-attribute index (items.repo.ts
 * `matchAll`).
 */
export async function searchItems(deps: CatalogDeps, input: SearchInput): Promise<ItemsAnswer> {
  checkFilters(deps, input);
  const { maxResults, maxAnswerBytes } = deps.search;
  const filters = input.filter_params.map((f) => ({ key: f.key, values: [canonicalValue(f.value)] }));
  const match = deps.items.matchAll(filters);
  const ids = match.ok ? match.ids : [];
  if (ids.length > maxResults)
    throw searchTooBroad("search.maxResults", maxResults, `more than ${maxResults} items match`);
  let bytes = 2; // [ and ]
  const found: number[] = [];
  for (const id of ids) {
    const kept = deps.items.storedAnswerSizeOf(id);
    if (kept === undefined) continue;
    // an item written before sizes were kept is measured, each on its own turn of the event loop
    if (kept === null && found.length > 0) await nextTurn();
    const size = kept ?? deps.items.answerSizeOf(id);
    if (size === undefined) continue;
    bytes += size + (found.length > 0 ? 1 : 0);
    if (bytes > maxAnswerBytes)
      throw searchTooBroad(
        "search.maxAnswerBytes",
        maxAnswerBytes,
        `the ${ids.length} matching items are more than ${maxAnswerBytes} bytes`,
      );
    found.push(id);
  }
  return { items: assembled(deps, found), bytes };
}

/** Each item's answer, assembled when asked for; an item deleted since it was measured is left out. */
function* assembled(deps: CatalogDeps, ids: readonly number[]): Generator<Buffer> {
  for (const id of ids) {
    const item = deps.items.answerOf(id);
    if (item) yield item;
  }
}
