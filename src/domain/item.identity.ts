import { AppError, type FieldError } from "./errors.js";
import type { ItemSchema, LevelInput } from "./item.schema.js";

/**
 * An item is identified by the groups in its schema's `unique` list (spec: Item object). Each group
 * becomes one (groupKey, tuple) pair; two items may never share a pair.
 */
export interface Identity {
  groupKey: string;
  tuple: string;
}

/** Canonical text of an attribute value for indexes: strings as they are, numbers and booleans as JSON. */
export function canonicalValue(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

function isScalar(v: unknown): boolean {
  return typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
}

/** The identity product_sku alone gives an item that carries no whole uniqueness group. */
const SKU_GROUP = ["product_sku"];

/**
 * The item's identities (docs/decisions.md#items). Only `product_sku` is required (spec: Item table);
 * a uniqueness group constrains the items that carry every one of its members, as a SQL UNIQUE ignores
 * rows with a NULL: a group the item carries only in part says nothing about it. An item that carries no
 * whole group is identified by its `product_sku` alone, so posting it again updates it. A member that is
 * present must be a string, number or boolean.
 */
export function identitiesOf(schema: ItemSchema, attrs: Record<string, unknown>): Identity[] {
  const errors: FieldError[] = [];
  const present = (name: string) => attrs[name] !== undefined && attrs[name] !== null;
  for (const name of new Set(schema.unique.flat())) {
    if (present(name) && !isScalar(attrs[name])) {
      errors.push({
        path: `productAttributes.${name}`,
        message: "a unique attribute must be a string, number or boolean",
      });
    }
  }
  if (errors.length) {
    throw new AppError("validation_failed", `${errors[0]?.path}: ${errors[0]?.message}`, errors);
  }
  const whole = schema.unique.map((g) => [...new Set(g)].sort()).filter((names) => names.every(present));
  const groups = whole.length ? whole : [SKU_GROUP];
  const out = new Map<string, Identity>();
  for (const names of groups) {
    const groupKey = names.join("\u001f");
    out.set(groupKey, { groupKey, tuple: JSON.stringify(names.map((n) => canonicalValue(attrs[n]))) });
  }
  return [...out.values()];
}

/** Attribute names that appear in any uniqueness group: the keys search_v2 and pick filters may use. */
export function uniqueKeysOf(schema: ItemSchema): string[] {
  return [...new Set(schema.unique.flat())];
}

/**
 * The attributes that name an item in what goes out (`pdfa_values` of actuals, audit lines, bin
 * contents): `product_sku` (the one attribute every item has, spec: Item table) and every attribute of
 * its uniqueness groups that it carries, so the values always hold a whole group of it
 * (docs/decisions.md#item-identity).
 */
export function identifyingValues(
  schema: ItemSchema,
  attrs: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ["product_sku", ...uniqueKeysOf(schema)]) {
    const v = attrs[k];
    if (v !== undefined && v !== null) out[k] = v;
  }
  return out;
}

/**
 * Whether a name's values agree with an item's attributes: each named attribute the item carries has
 * the named value, and a named unique attribute (`isUniqueKey`: a key of some item's uniqueness group)
 * the item lacks rules it out. Other named keys the item lacks say nothing about it (spec: pdfa_values
 * carries "product_sku and further key/values"; those are kept as sent).
 */
export function agreesWith(
  name: Readonly<Record<string, unknown>>,
  attrs: Record<string, unknown>,
  isUniqueKey: (key: string) => boolean,
): boolean {
  return Object.entries(name).every(([k, want]) => {
    const have = attrs[k];
    if (have === undefined || have === null) return !isUniqueKey(k);
    return want !== undefined && want !== null && canonicalValue(want) === canonicalValue(have);
  });
}

/**
 * Whether `name` (pdfa_values, or a station call's attributes) names this item: it holds the values of
 * one whole identity of the item (a uniqueness group, or product_sku alone for an item that carries no
 * whole group, as identitiesOf says) and agrees with it (docs/decisions.md#item-identity).
 */
export function namesItem(
  name: Readonly<Record<string, unknown>>,
  schema: ItemSchema,
  attrs: Record<string, unknown>,
  isUniqueKey: (key: string) => boolean,
): boolean {
  if (!agreesWith(name, attrs, isUniqueKey)) return false;
  return identitiesOf(schema, attrs).some((i) => i.groupKey.split("\u001f").every((k) => k in name));
}

/** The identities a name could hold, one per known group whose every member it gives. */
export function identitiesIn(
  name: Readonly<Record<string, unknown>>,
  groupKeys: readonly string[],
): Identity[] {
  const out: Identity[] = [];
  for (const groupKey of groupKeys) {
    const names = groupKey.split("\u001f");
    const values = names.map((n) => name[n]);
    if (values.some((v) => v === undefined || v === null || !isScalar(v))) continue;
    out.push({ groupKey, tuple: JSON.stringify(values.map(canonicalValue)) });
  }
  return out;
}

/** An item as a name resolves to it: its id (the actuals' `uid`) and its identifying values. */
export interface NamedItem {
  id: number;
  values: Record<string, unknown>;
}

/**
 * The one item a name gives (`named`: the items it names by a whole group); a 400 otherwise. Several
 * named, or none named but several agreeing in part (`agreeing`: e.g. product_sku alone, shared by items
 * told apart by client_id), is `ambiguous_item` naming each candidate's uid and identifying values, so
 * the caller can say which; one agreeing in part, or none at all, is `validation_failed`.
 */
export function theOneNamed(
  named: readonly NamedItem[],
  path: string,
  what: string,
  agreeing: readonly NamedItem[] = [],
): NamedItem {
  const [first, second] = named;
  if (first && !second) return first;
  const candidates = named.length ? named : agreeing;
  const details = {
    candidates: candidates.map((c) => ({ uid: String(c.id), uidType: "ITEM_ID", pdfa_values: c.values })),
  };
  const uids = candidates.map((c) => String(c.id)).join(", ");
  if (candidates.length > 1) {
    throw new AppError(
      "ambiguous_item",
      `${path}: ${what} names ${candidates.length} items (uid ${uids}); give the values of a uniqueness group of one`,
      [{ path, message: `names ${candidates.length} items: uid ${uids}` }],
      details,
    );
  }
  const message = candidates.length
    ? `names item ${uids} only in part: give the values of a whole uniqueness group of it`
    : "no such item: give the values of one of its uniqueness groups";
  throw new AppError("validation_failed", `${path}: ${what} ${message}`, [{ path, message }], details);
}

export interface BarcodeRef {
  barcode: string;
  /** JSON path in the request, for error messages. */
  path: string;
  /** null for the item's own list, else the level path (`level.0.level.1`). */
  levelPath: string | null;
}

/** Every barcode of an item and of its itemConfig levels; duplicates inside one body are a 400. */
export function collectBarcodes(
  barcodeList: Array<{ barcode: string }>,
  levels: LevelInput[] | undefined,
): BarcodeRef[] {
  const refs: BarcodeRef[] = barcodeList.map((b, i) => ({
    barcode: b.barcode,
    path: `barcodeList.${i}.barcode`,
    levelPath: null,
  }));
  const walk = (ls: LevelInput[] | undefined, prefix: string) => {
    ls?.forEach((l, i) => {
      const here = `${prefix}level.${i}`;
      l.barcode?.forEach((b, j) => {
        refs.push({ barcode: b.barcode, path: `itemConfig.${here}.barcode.${j}.barcode`, levelPath: here });
      });
      walk(l.level, `${here}.`);
    });
  };
  walk(levels, "");
  const seen = new Map<string, string>();
  const errors: FieldError[] = [];
  for (const r of refs) {
    const prev = seen.get(r.barcode);
    if (prev) errors.push({ path: r.path, message: `barcode '${r.barcode}' is repeated (also at ${prev})` });
    else seen.set(r.barcode, r.path);
  }
  if (errors.length)
    throw new AppError("validation_failed", `${errors[0]?.path}: ${errors[0]?.message}`, errors);
  return refs;
}

/** Assigns `levelType` ids in depth-first order (spec: levelType is autogenerated). */
export function numberLevels(levels: LevelInput[] | undefined): LevelInput[] | undefined {
  if (!levels) return undefined;
  let next = 1;
  const walk = (ls: LevelInput[]): LevelInput[] =>
    ls.map((l) => {
      const levelType = next++;
      const copy: LevelInput = { ...l, levelType };
      if (l.level) copy.level = walk(l.level);
      return copy;
    });
  return walk(levels);
}
