/**
 * Conformance: "States and transitions" → "Put request" (the put back stage and put transaction rows,
 * "Put actual container states"), "Events" rules 3 and 4 (put exception and put complete notifications),
 * "Resources" → "Put request" (notification attributes). Every notification is read off the embedded
 * broker as the central system receives it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemBody } from "../support/fixtures.js";
import { type Envelope, ITEM, type Json, kinds, ok, putBody, SR, seedItem } from "../support/station.js";
import { PPS } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";

let c: Central;

beforeAll(async () => {
  c = await startCentral();
  await seedItem(c.t, "C");
  await ok(c.t.call("PUT", "/station/mode", { mode: "put" }));
  await ok(c.t.call("POST", "/station/seats/front/login", { user: "fred" }));
  await ok(c.t.call("POST", "/station/seats/back/login", { user: "bob" }));
  await ok(c.t.call("POST", "/station/racks", { msu: "M5", locations: ["S50"] }));
});
afterAll(async () => c?.close());

const call = (method: string, path: string, body?: unknown) => c.t.call(method, path, body);
const stateOf = async (id: string) => (await ok(call("GET", `${SR}/${id}?type=PUT`))).state as string;
const binState = async (bin: string) =>
  ((await ok(call("GET", "/station/state"))).bins as Json[]).find((b) => b.ppsBinId === bin)?.state;
const seatOf = (state: string) => (state.startsWith("back_") ? "back" : "front");
const userOf = (state: string) => (state.startsWith("back_") ? "bob" : "fred");

/** A put of `qty` × C staged into `bin` at the station itself (put back staging), its notes consumed. */
async function backStaged(id: string, bin: string, qty: number): Promise<void> {
  await ok(call("POST", SR, putBody(id, [["C", qty]])));
  await ok(call("POST", `/station/puts/${id}/put-back-stage`, { ppsBinId: bin }));
  await c.mark();
}

const exception = (id: string, reason: string, quantity = 1) =>
  call("POST", "/station/puts/exceptions", {
    externalServiceRequestId: id,
    product_sku: "C",
    quantity,
    reason,
    seat: seatOf(reason),
  });
const put = (id: string, quantity = 1) =>
  call("POST", "/station/puts", {
    externalServiceRequestId: id,
    product_sku: "C",
    location: "S50",
    quantity,
    seat: "front",
  });

const EXCEPTION_STATES = [
  "back_unscannable",
  "back_physically_damaged",
  "back_oversized_entities",
  "back_excess_entities",
  "back_warehouse_full",
  "front_physically_damaged",
  "front_missing",
  "front_unscannable",
  "front_excess_entities",
  "front_warehouse_full",
  "front_space_unavailable",
];

function expectException(note: Envelope | undefined, id: string, state: string): void {
  expect(note?.notification_type).toBe("put_information");
  expect(note?.notification_data).toMatchObject({
    externalServiceRequestId: id,
    type: "PUT",
    state: "put_transaction",
    status: "PROCESSING",
    attributes: { tote_id: "TOTE-1", pps_id: PPS, pps_bin_id: "2", pps_seat_name: seatOf(state) },
  });
  expect(note?.notification_data.attributes.user_name).toBe(userOf(state));
  const containers = note?.notification_data.actuals.containers as Json[];
  expect(containers.map((k) => k.state)).toEqual([state]);
  expect(containers[0]?.products[0]).toMatchObject({
    productQuantity: 1,
    productAttributes: { pdfa_values: { product_sku: "C" } },
  });
}

describe("put back staging", () => {
  it("Put request: created | put back stage operation → staged (docs/decisions.md#service-requests-pick-pickpack-put: POST /station/puts/{id}/put-back-stage, notifies nothing)", async () => {
    await ok(call("POST", SR, putBody("B-STAGE", [["C", 1]])));
    await c.mark();
    const staged = await ok(call("POST", "/station/puts/B-STAGE/put-back-stage", { ppsBinId: "2" }));
    expect(staged).toMatchObject({ state: "staged", status: "PROCESSING" });
    expect(await c.since()).toEqual([]);
    expect([await stateOf("B-STAGE"), await binState("2")]).toEqual(["staged", "put"]);
    await ok(put("B-STAGE"));
    await ok(call("POST", "/station/puts/B-STAGE/release"));
  });

  it("Put request: put back stage into a bin that is not empty → 409 invalid_state naming ppsBinId, nothing changed", async () => {
    await backStaged("B-FULL", "2", 1);
    await ok(call("POST", SR, putBody("B-SECOND", [["C", 1]])));
    const res = await call("POST", "/station/puts/B-SECOND/put-back-stage", { ppsBinId: "2" });
    const body = (await res.json()) as Json;
    expect([res.status, body.code, body.errors?.[0]?.path]).toEqual([409, "invalid_state", "ppsBinId"]);
    expect(await stateOf("B-SECOND")).toBe("created");
    await ok(put("B-FULL"));
    await ok(call("POST", "/station/puts/B-FULL/release"));
    expect(await c.since()).toHaveLength(1);
  });
});

describe("put transactions and their exceptions (rules 3 and 4)", () => {
  it.each(EXCEPTION_STATES)(
    "Put request: staged | put transactions | put not finished → staged | put_transaction exception notifications on exceptions: %s",
    async (state) => {
      const id = `X-${state}`;
      await backStaged(id, "2", 2);
      const after = await ok(exception(id, state));
      expect(after.state).toBe("staged");
      const [note, ...more] = await c.since();
      expect(more).toEqual([]);
      expectException(note, id, state);
      await ok(put(id, state.endsWith("_excess_entities") ? 2 : 1));
      expect(kinds(await c.since())).toEqual([["put_information", "complete"]]);
      await ok(call("POST", `/station/puts/${id}/release`));
    },
  );

  it("Put request: rule 4 | back_warehouse_full sends state put_transaction, not the variant's complete (decision); the put stays staged", async () => {
    await backStaged("X-WFB", "2", 2);
    await ok(exception("X-WFB", "back_warehouse_full"));
    expect(kinds(await c.since())).toEqual([["put_information", "put_transaction"]]);
    expect(await stateOf("X-WFB")).toBe("staged");
    await ok(exception("X-WFB", "back_warehouse_full"));
    expect(kinds(await c.since())).toEqual([
      ["put_information", "put_transaction"],
      ["put_information", "complete"],
    ]);
    await ok(call("POST", "/station/puts/X-WFB/release"));
  });

  it("Put request: rule 3 + 4 | the final put complete notification repeats all exceptions: every transaction, successful and not, state complete, status PROCESSED, containerAttributes.location", async () => {
    await backStaged("X-ALL", "2", 4);
    await ok(exception("X-ALL", "front_physically_damaged"));
    await ok(put("X-ALL"));
    await ok(exception("X-ALL", "back_excess_entities"));
    await ok(exception("X-ALL", "front_missing"));
    await ok(put("X-ALL"));
    const notes = await c.since();
    expect(kinds(notes)).toEqual([
      ["put_information", "put_transaction"],
      ["put_information", "put_transaction"],
      ["put_information", "put_transaction"],
      ["put_information", "complete"],
    ]);
    const done = notes[3]?.notification_data as Json;
    expect(done).toMatchObject({ externalServiceRequestId: "X-ALL", state: "complete", status: "PROCESSED" });
    expect(done.attributes).toMatchObject({ tote_id: "TOTE-1", pps_id: PPS, pps_bin_id: "2" });
    const containers = done.actuals.containers as Json[];
    expect(containers.map((k) => [k.state, k.containerAttributes])).toEqual([
      ["front_physically_damaged", null],
      ["complete", { location: "S50" }],
      ["back_excess_entities", null],
      ["front_missing", null],
      ["complete", { location: "S50" }],
    ]);
    const exceptionIds = notes.slice(0, 3).map((n) => n.notification_data.actuals.containers[0].id);
    expect(exceptionIds).toEqual([containers[0]?.id, containers[2]?.id, containers[3]?.id]);
    await ok(call("POST", "/station/puts/X-ALL/release"));
  });
});

describe("Put request resource: pdfa_values", () => {
  it("Put request: productAttributes.pdfa_values (object with product_sku and further key/values) → the further unique attributes choose the item; other keys are kept as sent; product_sku alone naming two items → 400 naming the product", async () => {
    const schema = { unique: [["product_sku", "colour"]], type: "object" };
    for (const colour of ["red", "blue"]) {
      const attrs = {
        productAttributes: { product_sku: "SOCK", colour },
        barcodeList: [{ barcode: `BC-SOCK-${colour}` }],
      };
      await ok(call("POST", ITEM, itemBody("SOCK", { schema, ...attrs })));
    }
    const body = putBody("P-SOCK", [["SOCK", 1]]);
    const product = body.expectations.containers[0].products[0];
    const ambiguous = await call("POST", SR, body);
    const refused = (await ambiguous.json()) as Json;
    expect([ambiguous.status, refused.errors[0].path]).toEqual([
      400,
      "expectations.containers.0.products.0.productAttributes.pdfa_values",
    ]);
    product.productAttributes.pdfa_values = { product_sku: "SOCK", colour: "blue", batch: "B-7" };
    const created = await ok(call("POST", SR, body));
    expect(created.expectations.containers[0].products[0].productAttributes.pdfa_values).toEqual({
      product_sku: "SOCK",
      colour: "blue",
      batch: "B-7",
    });
    await ok(call("POST", "/station/puts/P-SOCK/put-back-stage", { ppsBinId: "2" }));
    await c.mark();
    await ok(
      call("POST", "/station/puts", {
        externalServiceRequestId: "P-SOCK",
        product_sku: "SOCK",
        location: "S50",
        quantity: 1,
      }),
    );
    const [done] = await c.since();
    expect(done?.notification_data.actuals.containers[0].products[0].productAttributes.pdfa_values).toEqual({
      product_sku: "SOCK",
      colour: "blue",
    });
    await ok(call("POST", "/station/puts/P-SOCK/release"));
  });
});
