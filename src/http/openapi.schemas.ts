import { z } from "zod";

/** An OpenAPI 3.0 Schema Object, as plain JSON. */
export type JsonSchema = Record<string, unknown>;

const COMPONENTS = "#/components/schemas/";

/** Calls `visit` on every object in a JSON tree (schemas nest objects in objects and arrays). */
function walk(node: unknown, visit: (o: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) for (const n of node) walk(n, visit);
  else if (node && typeof node === "object") {
    visit(node as Record<string, unknown>);
    for (const v of Object.values(node)) walk(v, visit);
  }
}

/** Takes the definitions zod wrote into a converted schema out of it (`definitions` or `$defs`). */
function takeDefs(json: JsonSchema): Record<string, JsonSchema> {
  const defs = { ...(json.definitions as object), ...(json.$defs as object) } as Record<string, JsonSchema>;
  delete json.definitions;
  delete json.$defs;
  return defs;
}

/** The definition a local `$ref` names: `#` is the root, `#/definitions/X` or `#/$defs/X` a definition. */
function localTarget(ref: string): string | undefined {
  if (ref === "#") return "#";
  const m = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(ref);
  return m?.[1] ? decodeURIComponent(m[1].replace(/~1/g, "/").replace(/~0/g, "~")) : undefined;
}

/**
 * Leaves out what says nothing or promises too much: the bounds of a safe integer, which zod states
 * for every `.int()`; and in answers, `additionalProperties: false`, since answer schemas list the
 * members a client may rely on and a later version may add more (clients ignore unknown members).
 */
function tidy(o: Record<string, unknown>, io: "input" | "output"): void {
  if (o.minimum === Number.MIN_SAFE_INTEGER) delete o.minimum;
  if (o.maximum === Number.MAX_SAFE_INTEGER) delete o.maximum;
  if (io === "output" && o.additionalProperties === false) delete o.additionalProperties;
}

/** Points each local `$ref` of a tree at the component its definition became. */
function retarget(node: unknown, names: Map<string, string>): void {
  walk(node, (o) => {
    const target = typeof o.$ref === "string" ? localTarget(o.$ref) : undefined;
    const name = target === undefined ? undefined : names.get(target);
    if (name) o.$ref = COMPONENTS + name;
  });
}

/**
 * zod → OpenAPI 3.0 Schema Objects (zod's own `openapi-3.0` target: `nullable`, no `const`, boolean
 * `exclusiveMinimum`). zod puts a recursive schema, and one given an id with `.meta({ id })`, under
 * `definitions` inside the converted schema, which OpenAPI 3.0 does not allow: they move to
 * `components.schemas` and every `$ref` is rewritten to point there. One instance per document, so
 * the same definition met by several operations is stored once.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  /**
   * `io`: request bodies and parameters are what a client sends (`input`: fields with a default are
   * optional), answers what the agent sends (`output`). `hint` names definitions zod left unnamed.
   */
  convert(schema: z.ZodType, io: "input" | "output", hint: string): JsonSchema {
    const json = z.toJSONSchema(schema, { target: "openapi-3.0", io, unrepresentable: "any" }) as JsonSchema;
    walk(json, (o) => tidy(o, io));
    const defs = takeDefs(json);
    let selfRef = false;
    walk(json, (o) => {
      if (o.$ref === "#") selfRef = true;
    });
    if (selfRef) defs["#"] = { ...json };
    if (Object.keys(defs).length === 0) return json;
    const names = this.place(defs, hint);
    for (const [key, def] of Object.entries(defs)) {
      retarget(def, names);
      this.schemas[names.get(key) as string] = def;
    }
    if (selfRef) return { $ref: COMPONENTS + names.get("#") };
    retarget(json, names);
    return json;
  }

  /**
   * A component name for each definition: its id, or the hint for ones zod numbered. A name already
   * taken by a different schema gets a numbered suffix; the same schema met again keeps its name.
   */
  private place(defs: Record<string, JsonSchema>, hint: string): Map<string, string> {
    const base = (key: string) =>
      key === "#" ? hint : key.startsWith("__schema") ? `${hint}_${key.slice(2)}` : key;
    const names = new Map(Object.keys(defs).map((k) => [k, base(k)]));
    for (let changed = true; changed; ) {
      changed = false;
      for (const [key, def] of Object.entries(defs)) {
        const name = names.get(key) as string;
        const taken = this.schemas[name];
        const copy = structuredClone(def);
        retarget(copy, names);
        if (taken && JSON.stringify(taken) !== JSON.stringify(copy)) {
          names.set(key, this.nextFree(base(key), names));
          changed = true;
        }
      }
    }
    return names;
  }

  private nextFree(base: string, names: Map<string, string>): string {
    const used = new Set([...Object.keys(this.schemas), ...names.values()]);
    let n = 2;
    while (used.has(`${base}_${n}`)) n++;
    return `${base}_${n}`;
  }
}
