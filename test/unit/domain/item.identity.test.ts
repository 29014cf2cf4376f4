/**
 * Naming an item (docs/decisions.md#item-identity): a name holds a whole uniqueness group of the item
 * and agrees with it; what goes out (`pdfa_values`) names the item back; a name fitting several items is
 * `ambiguous_item` naming them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../../../src/domain/errors.js";
import {
  agreesWith,
  identifyingValues,
  identitiesIn,
  identitiesOf,
  namesItem,
  theOneNamed,
} from "../../../src/domain/item.identity.js";
import type { ItemSchema } from "../../../src/domain/item.schema.js";

const KEYS = ["product_sku", "client_id", "ean", "colour", "größe"];
const UNIQUE = new Set(KEYS);
const isUnique = (k: string) => UNIQUE.has(k);

const valueArb = fc.oneof(fc.string({ minLength: 1, maxLength: 6 }), fc.integer(), fc.boolean());
const groupArb = fc.uniqueArray(fc.constantFrom(...KEYS), { minLength: 1, maxLength: 3 });
const itemArb = fc.record({
  schema: fc
    .array(groupArb, { minLength: 1, maxLength: 3 })
    .map((unique): ItemSchema => ({ unique, type: "object" })),
  attrs: fc.record(
    {
      product_sku: fc.string({ minLength: 1, maxLength: 6 }),
      client_id: valueArb,
      ean: valueArb,
      colour: valueArb,
      größe: valueArb,
    },
    { requiredKeys: ["product_sku"] },
  ),
});

const groupsOf = (schema: ItemSchema, attrs: Record<string, unknown>) =>
  identitiesOf(schema, attrs).map((i) => i.groupKey.split("\u001f"));

describe("namesItem", () => {
  it("the values of any one identity of the item name it, and the lookup key of that identity is among a name's", () => {
    fc.assert(
      fc.property(itemArb, fc.nat(), ({ schema, attrs }, pick) => {
        const groups = groupsOf(schema, attrs);
        const group = groups[pick % groups.length] as string[];
        const name = Object.fromEntries(group.map((k) => [k, (attrs as Record<string, unknown>)[k]]));
        expect(namesItem(name, schema, attrs, isUnique)).toBe(true);
        const keys = identitiesOf(schema, attrs).map((i) => i.groupKey);
        const own = identitiesOf(schema, attrs).find((i) => i.groupKey === group.join("\u001f"));
        expect(identitiesIn(name, keys)).toContainEqual(own);
      }),
    );
  });

  it("what goes out (pdfa_values) names the item back", () => {
    fc.assert(
      fc.property(itemArb, ({ schema, attrs }) => {
        const values = identifyingValues(schema, attrs);
        expect(values.product_sku).toBe(attrs.product_sku);
        expect(namesItem(values, schema, attrs, isUnique)).toBe(true);
      }),
    );
  });

  it("a name with any value changed does not name the item", () => {
    fc.assert(
      fc.property(itemArb, fc.nat(), ({ schema, attrs }, pick) => {
        const values = identifyingValues(schema, attrs);
        const keys = Object.keys(values);
        const k = keys[pick % keys.length] as string;
        const changed = { ...values, [k]: `${String(values[k])}-other` };
        expect(namesItem(changed, schema, attrs, isUnique)).toBe(false);
        expect(agreesWith(changed, attrs, isUnique)).toBe(false);
      }),
    );
  });

  it("product_sku alone does not name an item identified by [product_sku, client_id], though it agrees with it", () => {
    const schema: ItemSchema = { unique: [["product_sku", "client_id"]], type: "object" };
    const attrs = { product_sku: "SOCK", client_id: "C2" };
    expect(namesItem({ product_sku: "SOCK" }, schema, attrs, isUnique)).toBe(false);
    expect(agreesWith({ product_sku: "SOCK" }, attrs, isUnique)).toBe(true);
    expect(namesItem({ product_sku: "SOCK", client_id: "C2" }, schema, attrs, isUnique)).toBe(true);
  });

  it("an item identified by [ean] is named by its ean, with or without product_sku; a unique attribute it lacks rules it out; other keys say nothing", () => {
    const schema: ItemSchema = { unique: [["ean"]], type: "object" };
    const attrs = { product_sku: "GLOVE", ean: "400" };
    expect(namesItem({ ean: "400" }, schema, attrs, isUnique)).toBe(true);
    expect(namesItem({ product_sku: "GLOVE", ean: "400" }, schema, attrs, isUnique)).toBe(true);
    expect(namesItem({ product_sku: "GLOVE" }, schema, attrs, isUnique)).toBe(false);
    expect(namesItem({ ean: "400", client_id: "C1" }, schema, attrs, isUnique)).toBe(false);
    expect(namesItem({ ean: "400", batch: "B-7" }, schema, attrs, isUnique)).toBe(true);
  });

  it("numbers and booleans compare by their text, as search and filters do", () => {
    const schema: ItemSchema = { unique: [["ean"]], type: "object" };
    expect(namesItem({ ean: "400" }, schema, { product_sku: "G", ean: 400 }, isUnique)).toBe(true);
    expect(namesItem({ ean: 400 }, schema, { product_sku: "G", ean: "400" }, isUnique)).toBe(true);
  });
});

describe("theOneNamed", () => {
  const c1 = { id: 1, values: { product_sku: "SOCK", client_id: "C1" } };
  const c2 = { id: 2, values: { product_sku: "SOCK", client_id: "C2" } };
  const refusal = (f: () => unknown) => {
    try {
      f();
    } catch (e) {
      return e as AppError;
    }
    throw new Error("not refused");
  };

  it("one item named → that item, whatever agrees in part", () => {
    expect(theOneNamed([c2], "p", "x", [c1, c2])).toBe(c2);
  });

  it("two named, or none named and two agreeing → 400 ambiguous_item naming each by uid and pdfa_values", () => {
    for (const e of [
      refusal(() => theOneNamed([c1, c2], "p", "x")),
      refusal(() => theOneNamed([], "p", "x", [c1, c2])),
    ]) {
      expect([e.code, e.kind, e.errors[0]?.path]).toEqual(["ambiguous_item", "invalid", "p"]);
      expect(e.details?.candidates).toEqual([
        { uid: "1", uidType: "ITEM_ID", pdfa_values: c1.values },
        { uid: "2", uidType: "ITEM_ID", pdfa_values: c2.values },
      ]);
    }
  });

  it("none named → 400 validation_failed naming the field (the one agreeing in part as a candidate)", () => {
    const partly = refusal(() => theOneNamed([], "p", "x", [c1]));
    expect([partly.code, partly.errors[0]?.path, partly.details?.candidates]).toEqual([
      "validation_failed",
      "p",
      [{ uid: "1", uidType: "ITEM_ID", pdfa_values: c1.values }],
    ]);
    expect(refusal(() => theOneNamed([], "p", "x")).code).toBe("validation_failed");
    expect(refusal(() => theOneNamed([], "p", "x"))).toBeInstanceOf(AppError);
  });
});
