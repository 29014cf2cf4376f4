import { z } from "zod";

/**
 * The productivity targets central sets (`request/set_productivity_targets`,
 * docs/mqtt.md#session-summaries): per member, a number (0: no target) or null (back to the configured
 * one); a member left out stays as it is.
 */
const target = (max: number) => z.number().int().min(0).max(max).nullable().optional();

export const productivityTargetsSchema = z
  .object({ linesPerHour: target(100_000), unitsPerHour: target(1_000_000) })
  .strict()
  .refine((t) => t.linesPerHour !== undefined || t.unitsPerHour !== undefined, {
    message: "name linesPerHour, unitsPerHour or both",
  });
export type ProductivityTargetsInput = z.output<typeof productivityTargetsSchema>;

/** What central set so far (stored), member by member: null where the configured target applies. */
export interface SetTargets {
  linesPerHour: number | null;
  unitsPerHour: number | null;
}

export const NO_SET_TARGETS: SetTargets = { linesPerHour: null, unitsPerHour: null };

/** The set targets after `input`: given members replace, left-out ones stay. */
export function withTargets(set: SetTargets, input: ProductivityTargetsInput): SetTargets {
  return {
    linesPerHour: input.linesPerHour === undefined ? set.linesPerHour : input.linesPerHour,
    unitsPerHour: input.unitsPerHour === undefined ? set.unitsPerHour : input.unitsPerHour,
  };
}

/** The targets in effect: central's where it set one, else the configured; 0 means none (null). */
export function effectiveTargets(
  configured: { linesPerHour: number; unitsPerHour: number },
  set: SetTargets,
): { linesPerHour: number | null; unitsPerHour: number | null } {
  const pick = (s: number | null, c: number) => {
    const v = s ?? c;
    return v > 0 ? v : null;
  };
  return {
    linesPerHour: pick(set.linesPerHour, configured.linesPerHour),
    unitsPerHour: pick(set.unitsPerHour, configured.unitsPerHour),
  };
}

/** A stored value read back: anything not of the shape counts as nothing set. */
export function storedTargets(value: unknown): SetTargets {
  const parsed = z
    .object({
      linesPerHour: z.number().int().min(0).nullable(),
      unitsPerHour: z.number().int().min(0).nullable(),
    })
    .safeParse(value);
  return parsed.success ? parsed.data : NO_SET_TARGETS;
}
