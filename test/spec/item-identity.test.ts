/**
 * Conformance: "Item object (product)" ("A product is uniquely identified by the schema of its category
 * or by a schema overridden at product level"; productAttributes: "only `product_sku` is required";
 * Schema object: "each inner list is one uniqueness group"; barcodeList: "every barcode must be globally
 * unique"), as the put and pick rows use it: "Put request" (`pdfa_values` "object with product_sku and
 * further key/values"), Product (`uid`, `uidType` "for example `ITEM_ID`"), "Report" ("a header row of
 * the unique fields of each product followed by `quantity`; sample header columns are product_sku,
 * client_id, quantity"). Put creates go over HTTP and MQTT (create_service_request); the station works
 * by scans (`/station/scans`); notifications are read off the embedded broker.
 * Decision: docs/decisions.md#item-identity.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemBody } from "../support/fixtures.js";
import { type Envelope, ITEM, type Json, ok, pickBody, SR } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";
import { GENERATE, PREFIX } from "./support/endpoints.js";

let c: Central;
const uid: Record<string, string> = {};
const PAIR = { unique: [["product_sku", "client_id"]], type: "object" };
const EAN = "4006381333931";

beforeAll(async () => {
  c = await startCentral();
  for (const client of ["C1", "C2"]) {
    const body = itemBody("SOCK", {
      schema: PAIR,
      productAttributes: { product_sku: "SOCK", client_id: client },
      barcodeList: [{ barcode: `BC-SOCK-${client}` }],
    });
    uid[client] = String((await ok(c.call("POST", ITEM, body))).id);
  }
  const glove = itemBody("GLOVE", {
    schema: { unique: [["ean"]], type: "object" },
    productAttributes: { product_sku: "GLOVE", ean: EAN },
    barcodeList: [{ barcode: "BC-GLOVE" }],
  });
  uid.GLOVE = String((await ok(c.call("POST", ITEM, glove))).id);
  await ok(c.call("PUT", "/station/mode", { mode: "put" }));
  await ok(c.call("POST", "/station/seats/front/login", { user: "fred" }));
  await ok(c.call("POST", "/station/racks", { msu: "M9", locations: ["S90", "S91"] }));
});
afterAll(async () => c?.close());

let seq = 0;
async function mqtt(name: string, payload: Json): Promise<Json> {
  return JSON.parse(await ask(c.broker, name, { transaction: `id-${++seq}`, ...payload })) as Json;
}

function putOf(id: string, products: Array<[Json, number]>, tote: string): Json {
  return {
    externalServiceRequestId: id,
    type: "PUT",
    attributes: { tote_id: tote },
    expectations: {
      containers: [
        {
          products: products.map(([pdfa_values, productQuantity]) => ({
            productQuantity,
            productAttributes: { pdfa_values },
          })),
        },
      ],
    },
  };
}

/** Creates the put over HTTP or MQTT; the created object, or the refusal's error body. */
async function create(via: "http" | "mqtt", body: Json): Promise<{ status: number; body: Json }> {
  if (via === "http") {
    const res = await c.call("POST", SR, body);
    return { status: res.status, body: (await res.json()) as Json };
  }
  const answer = await mqtt("create_service_request", body);
  return answer.status === "ok"
    ? { status: 200, body: answer.data as Json }
    : { status: answer.error.status as number, body: answer.error as Json };
}

const scan = (barcode: string) => ok(c.call("POST", "/station/scans", { seat: "front", barcode }));

/** One unit of the item of `barcode` put into `slot` by scans: item, slot, EXC-CONFIRM. */
async function putByScans(barcode: string, slot: string): Promise<void> {
  expect(await scan(barcode)).toMatchObject({ result: "done", as: "item" });
  expect(await scan(slot)).toMatchObject({ result: "done", as: "slot" });
  expect(await scan("EXC-CONFIRM")).toMatchObject({ result: "done", did: "put" });
}

/** [uid, pdfa_values, quantity] of each actual container of a notification. */
const booked = (n: Envelope | undefined) =>
  ((n?.notification_data.actuals.containers ?? []) as Json[]).map((a) => {
    const p = a.products[0] as Json;
    return [p.uid, p.uidType, p.productAttributes.pdfa_values, p.productQuantity];
  });

const completeOf = (notes: Envelope[], id: string) =>
  notes.find(
    (n) =>
      n.notification_type === "put_information" &&
      n.notification_data.externalServiceRequestId === id &&
      n.notification_data.state === "complete",
  );

/** The inventory report's rows as objects by its header (the unique fields, then quantity). */
async function reportRows(): Promise<Json[]> {
  const { id } = await ok(c.call("POST", GENERATE));
  await c.t.agent.services.reports.idle();
  const res = await c.call("GET", `${PREFIX.report}/download/${id}`);
  const [header, ...rows] = (await res.text()).split("\r\n").filter((l) => l !== "");
  const columns = (header as string).split(",");
  expect([columns.slice(0, 2), columns.at(-1)]).toEqual([["product_sku", "client_id"], "quantity"]);
  return rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [columns[i], v])));
}

const onHand = (slot: string, item: string) => c.t.agent.services.repos.stock.stockAt(slot, Number(item));

describe("two items of one SKU, told apart by another attribute of their uniqueness group", () => {
  it.each([
    ["http", "P-ID-HTTP", "TOTE-ID-H", "S90"],
    ["mqtt", "P-ID-MQTT", "TOTE-ID-M", "S91"],
  ] as const)(
    "Item object: uniqueness group [product_sku, client_id] → a put expecting both (created over %s) books the item whose barcode was scanned: the finished put, its notification and the inventory report name it",
    async (via, id, tote, slot) => {
      const created = await create(
        via,
        putOf(
          id,
          [
            [{ product_sku: "SOCK", client_id: "C1" }, 1],
            [{ product_sku: "SOCK", client_id: "C2" }, 1],
          ],
          tote,
        ),
      );
      expect(created.status).toBe(200);
      // Product: "uid (string or null), uidType (… for example `ITEM_ID`)": each expected product names its item
      const named = (created.body.expectations.containers[0].products as Json[]).map((p) => [
        p.uid,
        p.uidType,
      ]);
      expect(named).toEqual([
        [uid.C1, "ITEM_ID"],
        [uid.C2, "ITEM_ID"],
      ]);
      await ok(c.call("POST", `/station/puts/${id}/put-back-stage`, { ppsBinId: "2" }));
      await c.mark();
      const before = { C1: onHand(slot, uid.C1 as string), C2: onHand(slot, uid.C2 as string) };
      // the second item first: the one a SKU match would never find
      await putByScans("BC-SOCK-C2", slot);
      await putByScans("BC-SOCK-C1", slot);
      const done = completeOf(await c.since(), id);
      expect(booked(done)).toEqual([
        [uid.C2, "ITEM_ID", { product_sku: "SOCK", client_id: "C2" }, 1],
        [uid.C1, "ITEM_ID", { product_sku: "SOCK", client_id: "C1" }, 1],
      ]);
      expect(onHand(slot, uid.C1 as string)?.quantity).toBe((before.C1?.quantity ?? 0) + 1);
      expect(onHand(slot, uid.C2 as string)?.quantity).toBe((before.C2?.quantity ?? 0) + 1);
      await ok(c.call("POST", `/station/puts/${id}/release`));
      const rows = await reportRows();
      const sock = (client: string) => rows.find((r) => r.product_sku === "SOCK" && r.client_id === client);
      const expected = via === "http" ? "1" : "2";
      expect([sock("C1")?.quantity, sock("C2")?.quantity]).toEqual([expected, expected]);
    },
  );
});

describe("a name that fits two items", () => {
  it.each(["http", "mqtt"] as const)(
    "Put request: pdfa_values naming only product_sku of two items [product_sku, client_id] (over %s) → 400 ambiguous_item naming both candidates by uid and pdfa_values; nothing created",
    async (via) => {
      const id = `P-AMB-${via}`;
      const refused = await create(via, putOf(id, [[{ product_sku: "SOCK" }, 1]], "TOTE-AMB"));
      expect([refused.status, refused.body.code]).toEqual([400, "ambiguous_item"]);
      expect(refused.body.errors[0].path).toBe(
        "expectations.containers.0.products.0.productAttributes.pdfa_values",
      );
      expect(refused.body.details.candidates).toEqual([
        { uid: uid.C1, uidType: "ITEM_ID", pdfa_values: { product_sku: "SOCK", client_id: "C1" } },
        { uid: uid.C2, uidType: "ITEM_ID", pdfa_values: { product_sku: "SOCK", client_id: "C2" } },
      ]);
      expect((await c.call("GET", `${SR}/${id}?type=PUT`)).status).toBe(404);
    },
  );

  it("Item object: the stock adjustment naming only the shared product_sku → 400 ambiguous_item naming both; by a whole group or by uid it sets that item's stock", async () => {
    const res = await c.call("PUT", "/station/stock", {
      location: "S91",
      msu: "M9",
      product_sku: "SOCK",
      quantity: 5,
    });
    const body = (await res.json()) as Json;
    expect([res.status, body.code, body.errors[0].path]).toEqual([400, "ambiguous_item", "product_sku"]);
    expect(body.details.candidates.map((x: Json) => x.uid)).toEqual([uid.C1, uid.C2]);
    await ok(
      c.call("PUT", "/station/stock", {
        location: "S91",
        msu: "M9",
        pdfa_values: { product_sku: "SOCK", client_id: "C2" },
        quantity: 7,
      }),
    );
    await ok(c.call("PUT", "/station/stock", { location: "S91", msu: "M9", uid: uid.C1, quantity: 6 }));
    expect([onHand("S91", uid.C1 as string)?.quantity, onHand("S91", uid.C2 as string)?.quantity]).toEqual([
      6, 7,
    ]);
  });
});

describe("the station's put transaction names one of the put's items", () => {
  it("Put request: a put expecting both items of SKU SOCK → a put transaction naming only product_sku is 400 ambiguous_item (nothing booked); by pdfa_values or by uid it books the item named", async () => {
    const id = "P-NAMED";
    const body = putOf(
      id,
      [
        [{ product_sku: "SOCK", client_id: "C1" }, 1],
        [{ product_sku: "SOCK", client_id: "C2" }, 1],
      ],
      "TOTE-NAMED",
    );
    await ok(c.call("POST", SR, body));
    await ok(c.call("POST", `/station/puts/${id}/put-back-stage`, { ppsBinId: "2" }));
    const put = (item: Json) =>
      c.call("POST", "/station/puts", {
        externalServiceRequestId: id,
        location: "S90",
        quantity: 1,
        ...item,
      });
    await c.mark();
    const res = await put({ product_sku: "SOCK" });
    const refused = (await res.json()) as Json;
    expect([res.status, refused.code, refused.errors[0].path]).toEqual([
      400,
      "ambiguous_item",
      "product_sku",
    ]);
    expect(refused.details.candidates.map((x: Json) => x.uid)).toEqual([uid.C1, uid.C2]);
    expect(await c.since()).toEqual([]);
    await ok(put({ pdfa_values: { product_sku: "SOCK", client_id: "C2" } }));
    const other = await put({ uid: uid.C2 });
    expect([other.status, ((await other.json()) as Json).errors[0].path]).toEqual([400, "quantity"]);
    await ok(put({ uid: uid.C1 }));
    expect(booked(completeOf(await c.since(), id)).map(([u]) => u)).toEqual([uid.C2, uid.C1]);
    await ok(c.call("POST", `/station/puts/${id}/release`));
  });
});

describe("an item whose uniqueness group lacks product_sku", () => {
  it.each(["http", "mqtt"] as const)(
    'Item object: unique [["ean"]] → a put naming it by {product_sku, ean} (over %s) is created, put away by a scan, and its actual names it',
    async (via) => {
      const id = `P-EAN-${via}`;
      const created = await create(via, putOf(id, [[{ product_sku: "GLOVE", ean: EAN }, 1]], "TOTE-EAN"));
      expect(created.status).toBe(200);
      await ok(c.call("POST", `/station/puts/${id}/put-back-stage`, { ppsBinId: "3" }));
      await c.mark();
      await putByScans("BC-GLOVE", "S90");
      expect(booked(completeOf(await c.since(), id))).toEqual([
        [uid.GLOVE, "ITEM_ID", { product_sku: "GLOVE", ean: EAN }, 1],
      ]);
      await ok(c.call("POST", `/station/puts/${id}/release`));
    },
  );

  it('Item object: unique [["ean"]] → its stock is set by its ean (PUT /station/stock), a pick filtering on ean is fulfillable and picked by a scan; the pick\'s actual names it', async () => {
    await ok(
      c.call("PUT", "/station/stock", { location: "S91", msu: "M9", pdfa_values: { ean: EAN }, quantity: 4 }),
    );
    expect(onHand("S91", uid.GLOVE as string)?.quantity).toBe(4);
    await ok(c.call("PUT", "/station/mode", { mode: "pick" }));
    await c.mark();
    const line = {
      externalServiceRequestId: "K-EAN-1",
      type: "PICK_LINE",
      expectations: {
        containers: [
          {
            products: [{ productQuantity: 1, productAttributes: { filter_parameters: [`ean = '${EAN}'`] } }],
          },
        ],
      },
    };
    await ok(c.call("POST", SR, pickBody("K-EAN", [line])));
    await ok(c.call("DELETE", "/station/racks/M9"));
    await ok(c.call("POST", "/station/racks", { msu: "M9", locations: ["S90", "S91"] }));
    expect(await scan("BC-GLOVE")).toMatchObject({ result: "done", as: "item", did: "bin_lit" });
    await scan("EXC-CONFIRM");
    const notes = await c.since();
    const states = notes
      .filter((n) => n.notification_data.externalServiceRequestId === "K-EAN")
      .map((n) => n.notification_data.state);
    expect(states).toContain("complete");
    const complete = notes.find(
      (n) =>
        n.notification_data.externalServiceRequestId === "K-EAN" && n.notification_data.state === "complete",
    );
    const actual = complete?.notification_data.serviceRequests[0].actuals.containers[0].products[0] as Json;
    expect([actual.uid, actual.productAttributes.pdfa_values]).toEqual([
      uid.GLOVE,
      { product_sku: "GLOVE", ean: EAN },
    ]);
  });
});

describe("a pick filter that selects two items of one SKU", () => {
  it("Pick request: `product_sku = 'SOCK'` selects both items of the SKU (\"products matching all of them are selected\") → a scan of either item's barcode books that item; a station pick at a slot holding both for the line must say which (400 ambiguous_item)", async () => {
    for (const slot of ["S90", "S91"])
      for (const client of ["C1", "C2"])
        await ok(
          c.call("PUT", "/station/stock", { location: slot, msu: "M9", uid: uid[client], quantity: 0 }),
        );
    for (const client of ["C1", "C2"])
      await ok(
        c.call("PUT", "/station/stock", { location: "S80", msu: "M8", uid: uid[client], quantity: 1 }),
      );
    const line = (id: string) => ({
      externalServiceRequestId: id,
      type: "PICK_LINE",
      expectations: {
        containers: [
          {
            products: [
              { productQuantity: 2, productAttributes: { filter_parameters: ["product_sku = 'SOCK'"] } },
            ],
          },
        ],
      },
    });
    await ok(c.call("POST", SR, pickBody("K-SOCK", [line("K-SOCK-1")])));
    await ok(c.call("POST", "/station/racks", { msu: "M8", locations: ["S80"] }));
    const unnamed = await c.call("POST", "/station/picks", {
      externalServiceRequestId: "K-SOCK",
      line: "K-SOCK-1",
      location: "S80",
      quantity: 1,
    });
    const refused = (await unnamed.json()) as Json;
    expect([unnamed.status, refused.code, refused.errors[0].path]).toEqual([400, "ambiguous_item", "uid"]);
    expect(refused.details.candidates.map((x: Json) => x.uid)).toEqual([uid.C1, uid.C2]);
    await c.mark();
    for (const client of ["C2", "C1"]) {
      expect(await scan(`BC-SOCK-${client}`)).toMatchObject({ result: "done", as: "item", did: "bin_lit" });
      await scan("EXC-CONFIRM");
    }
    const complete = (await c.since()).find(
      (n) =>
        n.notification_data.externalServiceRequestId === "K-SOCK" && n.notification_data.state === "complete",
    );
    const actuals = (complete?.notification_data.serviceRequests[0].actuals.containers ?? []) as Json[];
    expect(actuals.map((a) => [a.products[0].uid, a.products[0].productAttributes.pdfa_values])).toEqual([
      [uid.C2, { product_sku: "SOCK", client_id: "C2" }],
      [uid.C1, { product_sku: "SOCK", client_id: "C1" }],
    ]);
    expect([onHand("S80", uid.C1 as string)?.quantity, onHand("S80", uid.C2 as string)?.quantity]).toEqual([
      0, 0,
    ]);
  });
});
