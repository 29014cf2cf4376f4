import { z } from "zod";
import { AppError } from "../domain/errors.js";

export const ENV_PREFIX = "PPS_EDGE_";
/** Variables with the prefix that are not config keys. */
const RESERVED = new Set(["PPS_EDGE_CONFIG"]);

/** `tokenTtlSeconds` → `TOKEN_TTL_SECONDS` */
export function envSegment(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
}

/** `["http", "port"]` → `PPS_EDGE_HTTP_PORT`: the variable that overrides a key. */
export function envName(path: readonly string[]): string {
  return ENV_PREFIX + path.map(envSegment).join("_");
}

type AnySchema = z.ZodType;

function unwrap(schema: AnySchema): AnySchema {
  let s = schema;
  while (s instanceof z.ZodDefault || s instanceof z.ZodOptional) {
    s = (s as z.ZodDefault<AnySchema> | z.ZodOptional<AnySchema>).unwrap() as AnySchema;
  }
  return s;
}

/** Every leaf key path of an object schema, e.g. [["http","port"], ["dataDir"]]. */
export function leafPaths(schema: AnySchema, prefix: string[] = []): string[][] {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    return Object.entries(inner.shape as Record<string, AnySchema>).flatMap(([k, v]) =>
      leafPaths(v, [...prefix, k]),
    );
  }
  return [prefix];
}

/**
 * Folds `PPS_EDGE_*` variables into the raw config object. Values stay strings; the schema coerces
 * numbers. An unknown `PPS_EDGE_*` variable is an error: a typo must not be silently ignored.
 */
export function applyEnv(
  raw: Record<string, unknown>,
  env: Record<string, string | undefined>,
  schema: AnySchema,
): Record<string, unknown> {
  const byName = new Map(leafPaths(schema).map((p) => [envName(p), p]));
  const out = structuredClone(raw);
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith(ENV_PREFIX) || RESERVED.has(name) || value === undefined) continue;
    const path = byName.get(name);
    if (!path) {
      throw new AppError("validation_failed", `${name}: not a configuration key`, [
        { path: name, message: `unknown variable; known: ${[...byName.keys()].join(", ")}` },
      ]);
    }
    let node: Record<string, unknown> = out;
    for (const seg of path.slice(0, -1)) {
      const next = node[seg];
      if (typeof next !== "object" || next === null) node[seg] = {};
      node = node[seg] as Record<string, unknown>;
    }
    node[path[path.length - 1] as string] = value;
  }
  return out;
}
