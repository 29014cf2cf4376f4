import { z } from "zod";

/**
 * How one configuration value is read, the same for every section: from YAML, or as text from its
 * environment variable (config.env.ts). Each section's schema builds on these.
 */

/** An integer key within bounds, with its default (from YAML, or a string from an environment variable). */
export const count = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** A list from YAML, or the same comma-separated from an environment variable: `z.preprocess(commaSeparated, …)`. */
export const commaSeparated = (v: unknown): unknown =>
  typeof v === "string"
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "")
    : v;

/** `true`/`false` from YAML, or the same words from an environment variable. */
export const flag = z.preprocess((v) => (v === "true" ? true : v === "false" ? false : v), z.boolean());
