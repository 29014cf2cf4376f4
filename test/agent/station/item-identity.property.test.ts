/**
 * Item identity, as a property (docs/decisions.md#item-identity): over random catalogs whose items have
 * several uniqueness groups and share SKUs, a put naming each item by one of its groups and worked off
 * by scans in a random order, then a pick of each item worked off by scans, always book the item whose
 * barcode was scanned: its stock, the actuals of every notification (uid and pdfa_values) and the
 * inventory report name it, never another item of its SKU.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { itemBody } from "../../support/fixtures.js";
import {
  type Envelope,
  ITEM,
  type Json,
  NotificationReader,
  ok,
  pickBody,
  SR,
} from "../../support/station.js";

const REPORT = "/api-gateway/platform-dashboard/report";
const SCHEMAS: string[][][] = [
  [["product_sku", "client_id"]],
  [["ean"]],
  [["product_sku", "colour"], ["ean"]],
  [["product_sku", "client_id"], ["ean"]],
  [["product_sku"]],
];

interface Spec {
  sku: number;
  schema: number;
  /** which of its groups the put names it by */
  group: number;
  /** units put */
  quantity: number;
  /** units then picked (at most what was put) */
  picked: number;
}

interface Item {
  uid: string;
  barcode: string;
  schema: string[][];
  attrs: Record<string, string>;
  spec: Spec;
}

const specArb = fc.record({
  sku: fc.nat(1),
  schema: fc.nat(SCHEMAS.length - 1),
  group: fc.nat(1),
  quantity: fc.integer({ min: 1, max: 3 }),
  picked: fc.nat(3),
});
const runArb = fc.record({
  items: fc.array(specArb, { minLength: 2, maxLength: 5 }),
  // the order the units are scanned in: a permutation key per unit
  order: fc.array(fc.nat(1000), { minLength: 15, maxLength: 15 }),
});

let t: TestAgent;
let notes: NotificationReader;
let run = 0;

beforeAll(async () => {
  t = await startTestAgent({ ppsId: "7" });
  notes = new NotificationReader(t);
  await ok(t.call("POST", "/station/seats/front/login", { user: "fred" }));
});
afterAll(async () => t?.close());

const scan = (barcode: string) => ok(t.call("POST", "/station/scans", { seat: "front", barcode }));
const mode = (m: string) => ok(t.call("PUT", "/station/mode", { mode: m }));
const onHand = (slot: string, item: Item) =>
  t.agent.services.repos.stock.stockAt(slot, Number(item.uid))?.quantity ?? 0;

/** The identifying values every notification must carry for the item: product_sku and its groups' members. */
function identifying(item: Item): Record<string, string> {
  const out: Record<string, string> = { product_sku: item.attrs.product_sku as string };
  for (const k of item.schema.flat()) out[k] = item.attrs[k] as string;
  return out;
}

/** The run's catalog: SKUs shared between items, each item unique in every group it carries. */
async function catalog(specs: Spec[]): Promise<Item[]> {
  const items: Item[] = [];
  for (const [i, spec] of specs.entries()) {
    const sku = `R${run}-SKU${spec.sku}`;
    // only one item of a SKU may be identified by that SKU alone
    const skuOnly = SCHEMAS[spec.schema]?.length === 1 && SCHEMAS[spec.schema]?.[0]?.length === 1;
    const taken = items.some(
      (x) => x.attrs.product_sku === sku && x.schema.length === 1 && x.schema[0]?.length === 1,
    );
    const schema = SCHEMAS[skuOnly && taken ? 1 : spec.schema] as string[][];
    const attrs = {
      product_sku: sku,
      client_id: `R${run}-C${i}`,
      colour: `R${run}-col${i}`,
      ean: `R${run}-EAN${i}`,
    };
    const barcode = `R${run}-BC${i}`;
    const body = itemBody(sku, {
      schema: { unique: schema, type: "object" },
      productAttributes: attrs,
      barcodeList: [{ barcode }],
    });
    const { id } = await ok(t.call("POST", ITEM, body));
    items.push({ uid: String(id), barcode, schema, attrs, spec });
  }
  return items;
}

/** The item's name in a put: the values of one of its groups, with product_sku (spec: Put request). */
function nameOf(item: Item): Record<string, string> {
  const group = item.schema[item.spec.group % item.schema.length] as string[];
  return Object.fromEntries(["product_sku", ...group].map((k) => [k, item.attrs[k] as string]));
}

/** [uid, pdfa_values, quantity] of the actual containers of a put, or of a pick's lines. */
function actualsOf(list: Envelope[]): Array<[string, Json, number]> {
  const containers = (d: Json): Json[] =>
    d.type === "PUT"
      ? ((d.actuals?.containers ?? []) as Json[])
      : ((d.serviceRequests ?? []) as Json[]).flatMap((l) => (l.actuals?.containers ?? []) as Json[]);
  return list.flatMap((n) =>
    containers(n.notification_data).map((c): [string, Json, number] => {
      const p = c.products[0] as Json;
      return [p.uid as string, p.productAttributes.pdfa_values as Json, p.productQuantity as number];
    }),
  );
}

/** Every actual names its item by uid with that item's own identifying values. */
function expectNamed(items: Item[], actuals: Array<[string, Json, number]>): void {
  for (const [uid, values] of actuals) {
    const item = items.find((x) => x.uid === uid);
    expect(item, `uid ${uid} is an item of the run`).toBeDefined();
    expect(values).toEqual(identifying(item as Item));
  }
}

async function reportQuantities(items: Item[]): Promise<Map<string, number>> {
  const { id } = await ok(t.call("POST", `${REPORT}/generate-inventory-report`));
  await t.agent.services.reports.idle();
  const text = await (await t.call("GET", `${REPORT}/download/${id}`)).text();
  const [header, ...rows] = text.split("\r\n").filter((l) => l !== "");
  const columns = (header as string).split(",");
  const parsed = rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [columns[i], v])));
  const out = new Map<string, number>();
  for (const item of items) {
    // the row naming the item: a whole group of it among the columns, and no column that differs
    const attrColumns = columns.filter((k) => k !== "quantity");
    const names = (r: Record<string, string | undefined>) =>
      item.schema.some((g) => g.every((k) => r[k] === item.attrs[k])) &&
      attrColumns.every((k) => r[k] === "" || r[k] === item.attrs[k]);
    const mine = parsed.filter(names);
    out.set(item.uid, Number(mine[0]?.quantity ?? 0));
  }
  return out;
}

async function putAway(items: Item[], order: number[], slot: string): Promise<void> {
  const id = `PUT-R${run}`;
  const products = items.map((x) => ({
    productQuantity: x.spec.quantity,
    productAttributes: { pdfa_values: nameOf(x) },
  }));
  const body = {
    externalServiceRequestId: id,
    type: "PUT",
    attributes: { tote_id: `T-R${run}` },
    expectations: { containers: [{ products }] },
  };
  await ok(t.call("POST", SR, body));
  await ok(t.call("POST", `/station/puts/${id}/put-back-stage`, { ppsBinId: "1" }));
  const units = items.flatMap((x) => Array.from({ length: x.spec.quantity }, () => x));
  const keyed = units.map((x, i) => ({ x, k: order[i % order.length] ?? 0, i }));
  keyed.sort((a, b) => a.k - b.k || a.i - b.i);
  await notes.catchUp();
  for (const { x } of keyed) {
    expect(await scan(x.barcode)).toMatchObject({ result: "done", as: "item" });
    await scan(slot);
    expect(await scan("EXC-CONFIRM")).toMatchObject({ result: "done", did: "put" });
  }
  const puts = (await notes.next()).filter((n) => n.notification_type === "put_information");
  const complete = puts.find((n) => n.notification_data.state === "complete");
  const actuals = actualsOf(complete ? [complete] : []);
  expectNamed(items, actuals);
  // the units were booked in the order scanned, each as the item scanned
  expect(actuals.map(([uid]) => uid)).toEqual(keyed.map(({ x }) => x.uid));
  await ok(t.call("POST", `/station/puts/${id}/release`));
}

/** A filter on a whole group that selects only this item among the run's (pick filters select sets). */
function filtersFor(item: Item, items: Item[]): string[] | null {
  for (const group of item.schema) {
    const selects = items.filter((o) =>
      group.every((k) => o.schema.flat().includes(k) && o.attrs[k] === item.attrs[k]),
    );
    if (selects.length === 1) return group.map((k) => `${k} = '${item.attrs[k]}'`);
  }
  return null;
}

async function pickByScans(items: Item[], msu: string, slot: string): Promise<void> {
  const picked = items.flatMap((x) => {
    const filters = filtersFor(x, items);
    const quantity = Math.min(x.spec.picked, x.spec.quantity);
    return filters && quantity > 0 ? [{ x, filters, quantity }] : [];
  });
  if (!picked.length) return;
  const id = `PICK-R${run}`;
  const lines = picked.map(({ filters, quantity }, i) => ({
    externalServiceRequestId: `${id}-${i}`,
    type: "PICK_LINE",
    expectations: {
      containers: [
        { products: [{ productQuantity: quantity, productAttributes: { filter_parameters: filters } }] },
      ],
    },
  }));
  await mode("pick");
  await notes.catchUp();
  await ok(t.call("POST", SR, pickBody(id, lines)));
  await ok(t.call("DELETE", `/station/racks/${msu}`));
  await ok(t.call("POST", "/station/racks", { msu, locations: [slot] }));
  for (const { x } of picked) {
    expect(await scan(x.barcode)).toMatchObject({ result: "done", as: "item", did: "bin_lit" });
    await scan("EXC-CONFIRM");
  }
  const mine = (await notes.next()).filter((n) => n.notification_data.externalServiceRequestId === id);
  const complete = mine.find((n) => n.notification_data.state === "complete");
  expect(complete, "the pick completes").toBeDefined();
  const actuals = actualsOf([complete as Envelope]);
  expectNamed(items, actuals);
  expect(actuals.map(([uid, , q]) => [uid, q])).toEqual(picked.map(({ x, quantity }) => [x.uid, quantity]));
  const bin = (complete as Envelope).notification_data.attributes.pps_bin_id as string;
  await ok(t.call("POST", `/station/bins/${bin}/empty`));
  for (const p of picked) p.x.spec.quantity -= p.quantity;
  await mode("put");
}

describe("item identity over random catalogs", () => {
  it("puts and picks by scans book the scanned item: stock, notifications' uid and pdfa_values, and the inventory report name it", async () => {
    await mode("put");
    await fc.assert(
      fc.asyncProperty(runArb, async ({ items: specs, order }) => {
        run++;
        const msu = `M-R${run}`;
        const slot = `S-R${run}`;
        await ok(t.call("POST", "/station/racks", { msu, locations: [slot] }));
        const items = await catalog(specs.map((s) => ({ ...s })));
        await putAway(items, order, slot);
        for (const x of items) expect(onHand(slot, x)).toBe(x.spec.quantity);
        await pickByScans(items, msu, slot);
        await ok(t.call("DELETE", `/station/racks/${msu}`));
        const report = await reportQuantities(items);
        for (const x of items) {
          expect(onHand(slot, x)).toBe(x.spec.quantity);
          expect(report.get(x.uid)).toBe(x.spec.quantity);
        }
      }),
      { numRuns: 25, endOnFailure: true },
    );
  });
});
