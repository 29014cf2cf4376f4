import fc from "fast-check";
import type { z } from "zod";
import { parseJsonBody } from "../../../src/domain/json-body.js";
import { deepText, hostileValue, invalidUtf8, oddJsonText } from "./hostile.js";

/**
 * Request bodies a route must refuse: its own valid examples with at least one breaking mutation
 * (a field removed, a field or the whole body replaced by a hostile value), serialized the ways a
 * hostile client would (duplicated keys, a member nested past the depth limit, bytes that are not
 * UTF-8, a BOM, odd number text, beyond the size limit), under JSON and other content types. Whether a
 * body is refused is decided on the exact bytes as the server reads them (`surelyRefused`), so the
 * fuzz can expect "nothing changed" for every one.
 */

export interface Body {
  bytes: Buffer;
  contentType: string | undefined;
  family: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The JSON round trip the wire makes: NaN becomes null, -0 becomes 0, undefined members vanish. */
const wire = (v: unknown): unknown => JSON.parse(JSON.stringify(v) ?? "null");

/**
 * Paths to the members of an object (nested objects and arrays included), for mutations to aim at.
 * Only an array's first few elements: a hostile array of 60,000 would otherwise cost more than the request.
 */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []) {
  const members: Array<[string | number, unknown]> = Array.isArray(v)
    ? v.slice(0, 4).map((x, i) => [i, x])
    : isObject(v)
      ? Object.entries(v)
      : [];
  for (const [k, x] of members) {
    out.push([...prefix, k]);
    paths(x, [...prefix, k], out);
  }
  return out;
}

type Mutation = { kind: "remove" | "set" | "add"; at: number; value: unknown; key: string };

function apply(body: unknown, m: Mutation): unknown {
  const copy = structuredClone(body);
  const all = paths(copy);
  if (m.kind === "add" || all.length === 0) {
    const target = isObject(copy) ? copy : undefined;
    if (!target) return m.value;
    Object.defineProperty(target, m.key, {
      value: m.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return copy;
  }
  const path = all[m.at % all.length] as (string | number)[];
  const last = path[path.length - 1] as string | number;
  let parent: unknown = copy;
  for (const p of path.slice(0, -1)) parent = (parent as Json)[p as string];
  if (m.kind === "remove") {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete (parent as Json)[last as string];
  } else (parent as Json)[last as string] = m.value;
  return copy;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom("remove", "set", "set", "add"),
  at: fc.nat(),
  value: hostileValue,
  key: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("__proto__", "transaction", "id", "type")),
});

/** A body value: a valid example (or `{}`) under 1–4 mutations, or a hostile value outright. */
export function mutatedValue(examples: unknown[]): fc.Arbitrary<unknown> {
  const base = examples.length ? fc.constantFrom(...examples) : fc.constant({});
  const mutated = fc
    .tuple(base, fc.array(mutation, { minLength: 1, maxLength: 4 }))
    .map(([b, ms]) => wire(ms.reduce(apply, b)));
  return fc.oneof({ weight: 6, arbitrary: mutated }, { weight: 1, arbitrary: hostileValue.map(wire) });
}

/** JSON text of an object whose keys each appear twice: first with a hostile value, then the real one. */
function withDuplicates(v: unknown, dup: unknown): string {
  if (!isObject(v)) return JSON.stringify(v);
  const members = Object.entries(v).flatMap(([k, x]) => [
    `${JSON.stringify(k)}:${JSON.stringify(dup) ?? "null"}`,
    `${JSON.stringify(k)}:${withDuplicates(x, dup)}`,
  ]);
  return `{${members.join(",")}}`;
}

const JSON_TYPES = [
  "application/json",
  "application/json; charset=utf-8",
  "application/problem+json",
  "APPLICATION/JSON",
];
const OTHER_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/jsonx",
  "application/json; charset=utf-16",
  "application/xml",
  "*/*",
  "json",
  ";",
  "\u00ff/\u00ff",
];
export const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...JSON_TYPES) },
  { weight: 2, arbitrary: fc.constantFrom(...OTHER_TYPES) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

let FILLER = Buffer.alloc(0);
/** `n` bytes of `x`, cut from one buffer made once: a megabyte string per request costs more than the request. */
function filler(n: number): Buffer {
  if (FILLER.length < n) FILLER = Buffer.alloc(n * 2, "x");
  return FILLER.subarray(0, n);
}

/** Serializations of a body value, each a family name and the bytes. */
export function serialized(value: fc.Arbitrary<unknown>, limit: number): fc.Arbitrary<[string, Buffer]> {
  const text = (s: string): Buffer => Buffer.from(s, "utf8");
  const spliceObject = (v: unknown, member: string) => {
    const s = JSON.stringify(v) ?? "null";
    return isObject(v) && s !== "{}" ? `${s.slice(0, -1)},${member}}` : `{${member}}`;
  };
  return fc.oneof(
    { weight: 8, arbitrary: value.map((v): [string, Buffer] => ["json", text(JSON.stringify(v) ?? "null")]) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(value, hostileValue)
        .map(([v, d]): [string, Buffer] => ["duplicate keys", text(withDuplicates(v, d))]),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(value, deepText)
        .map(([v, d]): [string, Buffer] => ["deep", text(spliceObject(v, `"deep":${d}`))]),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(value, fc.integer({ min: 1, max: 65_536 })).map(([v, n]): [string, Buffer] => {
        const [head, tail] = spliceObject(v, '"huge":"\u0000"').split("\u0000");
        return ["huge", Buffer.concat([text(head ?? ""), filler(limit + n), text(tail ?? "")])];
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value, fc.integer({ min: 10_000, max: 100_000 }))
        .map(([v, n]): [string, Buffer] => [
          "huge array",
          text(spliceObject(v, `"many":[${"0,".repeat(n)}0]`)),
        ]),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(value, invalidUtf8, fc.boolean()).map(([v, bad, front]): [string, Buffer] => {
        const b = text(JSON.stringify(v) ?? "null");
        return ["invalid utf-8", front ? Buffer.concat([bad, b]) : Buffer.concat([b, bad])];
      }),
    },
    { weight: 1, arbitrary: value.map((v): [string, Buffer] => ["bom", text(`\ufeff${JSON.stringify(v)}`)]) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(value, oddJsonText)
        .map(([v, odd]): [string, Buffer] => ["odd text", text(spliceObject(v, `"odd":${odd}`))]),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(value, fc.nat()).map(([v, n]): [string, Buffer] => {
        const s = JSON.stringify(v) ?? "null";
        return ["truncated", text(s.slice(0, n % Math.max(1, s.length)))];
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .uint8Array({ maxLength: 64 })
        .map((b): [string, Buffer] => ["random bytes", Buffer.from(b)]),
    },
  );
}

const isJsonType = (t: string | undefined) => {
  const mime = t?.split(";")[0]?.trim().toLowerCase() ?? "";
  return mime === "application/json" || mime.endsWith("+json");
};

/** Would a JSON route with this body schema refuse these bytes? Read exactly as src/http/body.ts reads them. */
export function surelyRefused(schema: z.ZodType, optional: boolean, body: Body, limit: number): boolean {
  if (body.bytes.length > limit) return true;
  // as the Node server reads it (Buffer) and as a WHATWG Request does (TextDecoder drops a leading BOM)
  return (
    refusedText(schema, optional, body, body.bytes.toString("utf8")) &&
    refusedText(schema, optional, body, new TextDecoder().decode(body.bytes))
  );
}

function refusedText(schema: z.ZodType, optional: boolean, body: Body, text: string): boolean {
  if (optional && text.trim() === "") return !schema.safeParse({}).success;
  if (!isJsonType(body.contentType)) return true;
  try {
    return !schema.safeParse(parseJsonBody(text)).success;
  } catch {
    return true; // too deep or not JSON
  }
}

/** A JSON body the route must refuse; one that would pass is wrapped in an array, then refused. */
export function refusedJsonBody(
  schema: z.ZodType,
  optional: boolean,
  examples: unknown[],
  limit: number,
  types: fc.Arbitrary<string | undefined> = contentType,
) {
  return fc.tuple(serialized(mutatedValue(examples), limit), types).map(([[family, bytes], type]): Body => {
    const body = { bytes, contentType: type, family };
    if (surelyRefused(schema, optional, body, limit)) return body;
    const wrapped = {
      ...body,
      bytes: Buffer.from(`[${bytes.toString("utf8")}]`),
      family: `${family}, wrapped`,
    };
    return surelyRefused(schema, optional, wrapped, limit)
      ? wrapped
      : { ...body, bytes: Buffer.from("{"), family: "cut" };
  });
}
