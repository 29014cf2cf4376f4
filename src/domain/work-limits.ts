/**
 * How much work one request may ask of the agent, checked before the work is done (docs/decisions.md
 * "Work limits"). The agent answers on one event loop: a pick whose filters name thousands of values,
 * or a search whose answer holds thousands of images, would hold every operator's scan behind it. The
 * spec shows no page sizes or limits ("Rate limits, page sizes and payload size limits: not shown"),
 * so these are the agent's, each a configuration key (config/work.schema.ts) with these defaults.
 */
import { AppError } from "./errors.js";

export interface PickLimits {
  /** pick lines in one request (after a modify's changes) */
  maxLines: number;
  /** values in one `in` list of a filter string */
  maxFilterValues: number;
  /**
   * index rows read to resolve the filters of one request's lines, summed over its lines: about the
   * items its most selective filter of each line matches, times the filters
   */
  maxCandidates: number;
}

export interface SearchLimits {
  /** items one search_v2 answers */
  maxResults: number;
  /** bytes of one search_v2 answer (items carry `imageData` of any size) */
  maxAnswerBytes: number;
}

export const DEFAULT_PICK_LIMITS: PickLimits = {
  maxLines: 1000,
  maxFilterValues: 100,
  maxCandidates: 20_000,
};

export const DEFAULT_SEARCH_LIMITS: SearchLimits = { maxResults: 1000, maxAnswerBytes: 16 * 1024 * 1024 };

/**
 * A request that asks for more than a limit allows (413 `limit_exceeded`): nothing is changed, and the
 * body names the field, the limit's configuration key, its value and what was asked.
 */
export function limitExceeded(
  path: string,
  limit: string,
  max: number,
  asked: number,
  what: string,
): AppError {
  const message = `${path}: ${what}: ${asked} asked, at most ${max} (${limit})`;
  return new AppError("limit_exceeded", message, [{ path, message: `${what}: at most ${max}` }], {
    limit,
    max,
    asked,
  });
}

/**
 * A search_v2 that matches more than its answer may hold (400 `search_too_broad`): the client must
 * refine it. Nothing is answered in part, so a client never takes a cut list for the whole.
 */
export function searchTooBroad(limit: string, max: number, reason: string): AppError {
  return new AppError(
    "search_too_broad",
    `refine the search: ${reason} (${limit}: ${max})`,
    [{ path: "filter_params", message: `refine the search: ${reason}` }],
    { limit, max },
  );
}
