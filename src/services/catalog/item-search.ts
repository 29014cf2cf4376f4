import { AppError, type ErrorCode, type FieldError } from "../../domain/errors.js";
import { canonicalValue } from "../../domain/item.identity.js";
import type { SearchInput } from "../../domain/item.schema.js";
import { itemView, type StoredItem } from "../../domain/item.view.js";
import { type CatalogDeps, loadItem } from "./catalog-deps.js";

/** search_v2 answers at most this many items (pagination is not shown in the spec; docs/decisions.md). */
export const SEARCH_LIMIT = 1000;

function refuse(code: ErrorCode, errors: FieldError[]): void {
  if (errors.length) throw new AppError(code, `${errors[0]?.path}: ${errors[0]?.message}`, errors);
}

/** search_v2: every filter must name a unique attribute; results come from the item_keys index. */
export function searchItems(deps: CatalogDeps, input: SearchInput): Array<Record<string, unknown>> {
  const { items } = deps;
  refuse(
    "unsupported_operator",
    input.filter_params.flatMap((f, i) =>
      f.operator === "="
        ? []
        : [{ path: `filter_params.${i}.operator`, message: `only '=' is supported, got '${f.operator}'` }],
    ),
  );
  refuse(
    "unknown_search_key",
    input.filter_params.flatMap((f, i) =>
      f.key === "product_sku" || items.isKnownKey(f.key)
        ? []
        : [
            {
              path: `filter_params.${i}.key`,
              message: `'${f.key}' is not a unique attribute of any item schema`,
            },
          ],
    ),
  );
  const [first, ...rest] = input.filter_params;
  if (!first) return [];
  const ids = items
    .idsByKey(first.key, canonicalValue(first.value), rest.length ? -1 : SEARCH_LIMIT)
    .filter((id) => rest.every((f) => items.hasKey(id, f.key, canonicalValue(f.value))))
    .slice(0, SEARCH_LIMIT);
  return ids.map((id) => itemView(loadItem(deps, id) as StoredItem));
}
