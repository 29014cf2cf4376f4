import type { Context } from "hono";
import type { z } from "zod";
import { AppError, type FieldError } from "../domain/errors.js";

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

function isJsonType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mime = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return mime === "application/json" || mime.endsWith("+json");
}

/**
 * Reads a JSON body: 415 for another content type, 400 `malformed_json` for text that does not parse,
 * then schema validation (400 naming the field). The size limit is enforced before (app.ts, 413).
 */
export async function readJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.output<S>> {
  if (!isJsonType(c.req.header("content-type"))) {
    throw new AppError("unsupported_media_type", "the body must be application/json", [
      {
        path: "Content-Type",
        message: `expected application/json, got ${c.req.header("content-type") ?? "none"}`,
      },
    ]);
  }
  const text = await c.req.text();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new AppError("malformed_json", `the body is not valid JSON: ${(e as Error).message}`, [
      { path: "(body)", message: "not valid JSON" },
    ]);
  }
  return validate(schema, value);
}
