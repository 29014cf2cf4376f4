import type { z } from "zod";
import { AppError, type FieldError } from "./errors.js";

/** Turns zod issues into field errors with dotted paths (`exhaustive_pdea_list.0.display_data`). */
export function zodFieldErrors(issues: readonly z.core.$ZodIssue[], prefix = ""): FieldError[] {
  return issues.map((i) => {
    const path = [prefix, ...i.path.map(String)].filter((s) => s !== "").join(".");
    const keys = i.code === "unrecognized_keys" ? `: ${i.keys.join(", ")}` : "";
    return { path: path || "(body)", message: `${i.message}${keys}` };
  });
}

/** Validates a parsed value; throws a 400 naming every field at fault. */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what = "body"): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const errors = zodFieldErrors(result.error.issues);
    const first = errors[0];
    throw new AppError(
      "validation_failed",
      `invalid ${what}${first ? `: ${first.path}: ${first.message}` : ""}`,
      errors,
    );
  }
  return result.data;
}
