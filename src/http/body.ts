import type { Context } from "hono";
import type { z } from "zod";
import { AppError } from "../domain/errors.js";
import { validate } from "../domain/validate.js";

export { validate, zodFieldErrors } from "../domain/validate.js";

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
