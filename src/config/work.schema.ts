import { z } from "zod";
import { DEFAULT_PACK_MARKERS } from "../domain/pick-pack.js";
import { PACK_ATTRIBUTES } from "../domain/service-request.schema.js";
import { DEFAULT_PICK_LIMITS, DEFAULT_SEARCH_LIMITS } from "../domain/work-limits.js";
import { commaSeparated, count } from "./config-values.js";

/**
 * The `pick` and `search` keys: which picks go to packing, and how much work one request may ask for
 * (domain/pick-pack.ts, domain/work-limits.ts; docs/decisions.md "Pick+pack rule", "Work limits").
 */
const packAttributes = z.preprocess(
  commaSeparated,
  z
    .array(z.enum(PACK_ATTRIBUTES))
    .max(PACK_ATTRIBUTES.length)
    .default([...DEFAULT_PACK_MARKERS]),
);

const PICK = DEFAULT_PICK_LIMITS;
const SEARCH = DEFAULT_SEARCH_LIMITS;

export const pickSchema = z
  .object({
    packAttributes: packAttributes.describe(
      "line attributes that make a pick a pick+pack (comma-separated in the variable; any of `shipping_address`, `carrier_label_url`, `packing_box_id`, `packing_box_type`, `order_number`); a line carrying only others is a plain pick",
    ),
    maxLines: count(1, 1000, PICK.maxLines).describe(
      "pick lines one request may have (also after a modify), at most 1,000; more is a 413 `limit_exceeded`",
    ),
    maxFilterValues: count(1, 10_000, PICK.maxFilterValues).describe(
      "values in one `in` list of a filter string; more is a 413 `limit_exceeded`",
    ),
    maxCandidates: count(1, 1_000_000, PICK.maxCandidates).describe(
      "index rows read to resolve the filters of one request (about the items the most selective filter of each line matches, times its filters), over all its lines; more is a 413 `limit_exceeded`",
    ),
  })
  .strict()
  .default({ packAttributes: [...DEFAULT_PACK_MARKERS], ...PICK });

export const searchSchema = z
  .object({
    maxResults: count(1, 100_000, SEARCH.maxResults).describe(
      "items one `search_v2` answers; when more match it is a 400 `search_too_broad` (refine the search)",
    ),
    maxAnswerBytes: count(64 * 1024, 256 * 1024 * 1024, SEARCH.maxAnswerBytes).describe(
      "bytes of one `search_v2` answer (items' `imageData` included); a larger answer is a 400 `search_too_broad`",
    ),
  })
  .strict()
  .default({ ...SEARCH });
