import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { itemBody } from "../support/fixtures.js";
import { ITEM, type Json, kinds, ok, pickBody, pickLine } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { lineChange, orderInfos, pickStation } from "./pick-support.js";
import type { Central } from "./support/central.js";

/**
 * Conformance: "Pick request" (filter string grammar; simple_priority "normal (default)"), the Service
 * Request object's fields on create and GET, and the order_information "full current Service Request
 * object" naming the bin the request holds after a modify (attributes pps_bin_id).
 */
let central: Central;
let c: Awaited<ReturnType<typeof pickStation>>["c"];

/** Items with two uniqueness groups, so that a filter may select by either. */
async function seedStyled(sku: string, ean: string, colour: string): Promise<void> {
  const body = itemBody(sku, {
    clientCategoryId: "styled",
    schema: { unique: [["product_sku"], ["ean"], ["style", "colour"]], type: "object" },
    productAttributes: { product_sku: sku, ean, style: "polo", colour },
  });
  await ok(central.call("POST", ITEM, body));
}

beforeAll(async () => {
  ({ central, c } = await pickStation(["A", "B"]));
  await seedStyled("F1", "E1", "red");
  await seedStyled("F2", "E2", "blue");
  await c.stock("SF1", "MF", "F1", 5);
  await c.stock("SF2", "MF", "F2", 5);
  await c.stock("SA", "MA", "A", 50);
});
afterAll(async () => central?.close());

const filterLine = (id: string, filters: string[], qty = 1): Json => ({
  externalServiceRequestId: id,
  type: "PICK_LINE",
  expectations: {
    containers: [{ products: [{ productQuantity: qty, productAttributes: { filter_parameters: filters } }] }],
  },
});
/** Where the request's stock is reserved: [location, quantity] per reservation. */
const reservedAt = (loc: string, sku: "F1" | "F2") =>
  c.onHand(loc, central.t.agent.services.repos.items.idsByKey("product_sku", sku, -1)[0] as number)?.reserved;

describe("Pick request: filter string grammar", () => {
  it("Pick request: filter `unique_key operator value` | operator `=`, value a single-quoted string → the matching item is allocated", async () => {
    await c.create(pickBody("FG1", [filterLine("FG1-1", ["ean = 'E2'"])]));
    expect((await c.get("FG1")).state).toBe("fulfillable");
    expect(reservedAt("SF2", "F2")).toBe(1);
    expect((await c.cancel("FG1")).status).toBe(202);
    expect(reservedAt("SF2", "F2")).toBe(0);
  });

  it("Pick request: filter | operator `in`, value a list of single-quoted strings → any listed item may be allocated", async () => {
    await c.create(pickBody("FG2", [filterLine("FG2-1", ["product_sku in ('F1','F2')"], 8)]));
    expect((await c.get("FG2")).state).toBe("fulfillable");
    expect([reservedAt("SF1", "F1"), reservedAt("SF2", "F2")].sort()).toEqual([3, 5]);
    expect((await c.cancel("FG2")).status).toBe(202);
  });

  it("Pick request: filter | a list for `in` also as ['a','b'] (decision: docs/decisions.md#service-requests-pick-pickpack-put); a quote inside a value is doubled", async () => {
    await seedStyled("F'3", "E3", "green");
    await c.stock("SF3", "MF", "F'3", 2);
    await c.create(pickBody("FG5", [filterLine("FG5-1", ["product_sku in ['F''3', 'F9']"], 2)]));
    expect((await c.get("FG5")).state).toBe("fulfillable");
    const id = central.t.agent.services.repos.items.idsByKey("product_sku", "F'3", -1)[0] as number;
    expect(c.onHand("SF3", id)?.reserved).toBe(2);
    expect((await c.cancel("FG5")).status).toBe(202);
  });

  it("Pick request: several filter strings → products matching all of them are selected", async () => {
    await c.create(
      pickBody("FG3", [filterLine("FG3-1", ["product_sku in ('F1','F2')", "colour = 'red'"], 5)]),
    );
    expect((await c.get("FG3")).state).toBe("fulfillable");
    expect([reservedAt("SF1", "F1"), reservedAt("SF2", "F2")]).toEqual([5, 0]);
    expect((await c.cancel("FG3")).status).toBe(202);
  });

  it("Pick request: several filter strings matching no item together → not_fulfillable (status FAILED), nothing reserved", async () => {
    await central.mark();
    await c.create(pickBody("FG4", [filterLine("FG4-1", ["ean = 'E1'", "colour = 'blue'"])]));
    const infos = orderInfos(await central.since(), "FG4");
    expect(infos.map((i) => [i.state, i.status])).toEqual([["not_fulfillable", "FAILED"]]);
    expect([reservedAt("SF1", "F1"), reservedAt("SF2", "F2")]).toEqual([0, 0]);
    expect((await c.cancel("FG4")).status).toBe(202);
  });
});

describe("Pick request: filter key", () => {
  it("Pick request: `unique_key` is one of the product's uniquely defining attributes: a name the schema allows in any script (größe, 品番) is a key, over HTTP and MQTT (decision: docs/decisions.md#service-requests-pick-pickpack-put)", async () => {
    const body = itemBody("GR1", {
      clientCategoryId: "sized",
      schema: { unique: [["product_sku"], ["größe", "品番"]], type: "object" },
      productAttributes: { product_sku: "GR1", größe: "XL", 品番: "H-1" },
    });
    await ok(central.call("POST", ITEM, body));
    await c.stock("SGR", "MG", "GR1", 4);
    await c.create(pickBody("FK1", [filterLine("FK1-1", ["größe = 'XL'", "品番 in ('H-1')"])]));
    expect((await c.get("FK1")).state).toBe("fulfillable");
    expect((await c.cancel("FK1")).status).toBe(202);
    const mqtt = { transaction: "fk2", ...pickBody("FK2", [filterLine("FK2-1", ["größe='XL'"])]) };
    const answer = JSON.parse(await ask(central.broker, "create_service_request", mqtt)) as Json;
    expect(answer.status).toBe("ok");
    expect((await c.get("FK2")).state).toBe("fulfillable");
    expect((await c.cancel("FK2")).status).toBe(202);
  });
});

describe("Pick request: simple_priority", () => {
  it("Pick request: simple_priority | `normal` (default), `high`, `low`, `critical` → work order critical, high, normal (= absent), low", async () => {
    const orders: Array<[string, string | undefined]> = [
      ["WO-low", "low"],
      ["WO-absent", undefined],
      ["WO-high", "high"],
      ["WO-normal", "normal"],
      ["WO-critical", "critical"],
    ];
    for (const [id, priority] of orders) {
      await c.create(
        pickBody(id, [pickLine(`${id}-1`, "A", 1)], priority ? { simple_priority: priority } : undefined),
      );
    }
    const state = await ok(central.call("GET", "/station/state"));
    const queue = (state.pickQueue as Json[]).filter((q) =>
      String(q.externalServiceRequestId).startsWith("WO-"),
    );
    expect(queue.map((q) => q.externalServiceRequestId)).toEqual([
      "WO-critical",
      "WO-high",
      "WO-absent",
      "WO-normal",
      "WO-low",
    ]);
    expect(queue.find((q) => q.externalServiceRequestId === "WO-absent")?.priority).toBe("normal");
    for (const [id] of orders) expect((await c.cancel(id)).status).toBe(202);
  });
});

describe("Service Request object (pick): fields on create and GET", () => {
  it("Service Request object: id integer, externalServiceRequestId, type PICK, serviceRequests (PICK_LINE), expectations, actuals null, attributes, receivedOn/createdOn/updatedOn ISO 8601, status, state", async () => {
    const attributes = { simple_priority: "high", order_options: { priority: 2, bintags: ["cold"] } };
    const created = await c.create(pickBody("OBJ", [pickLine("OBJ-1", "A", 2)], attributes));
    const read = await c.get("OBJ");
    for (const [view, state] of [
      [created, "CREATED"],
      [read, "fulfillable"],
    ] as const) {
      expect(Number.isInteger(view.id)).toBe(true);
      expect(view).toMatchObject({
        externalServiceRequestId: "OBJ",
        type: "PICK",
        expectations: null,
        actuals: null,
        state,
      });
      expect(view.attributes).toMatchObject(attributes);
      expect(["CREATED", "PROCESSING"]).toContain(view.status);
      for (const k of ["receivedOn", "createdOn", "updatedOn"]) {
        expect(view[k]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/);
      }
      expect(view.serviceRequests).toHaveLength(1);
      const line = view.serviceRequests[0] as Json;
      expect(Number.isInteger(line.id)).toBe(true);
      expect(line).toMatchObject({ externalServiceRequestId: "OBJ-1", type: "PICK_LINE", actuals: null });
      expect(line.expectations.containers[0].products[0]).toMatchObject({
        productQuantity: 2,
        productAttributes: { filter_parameters: ["product_sku = 'A'"] },
      });
    }
    expect(read.id).toBe(created.id);
    expect((await c.cancel("OBJ")).status).toBe(202);
  });
});

describe("order_information after a modify names the bin the request holds now", () => {
  const binOf = async (id: string) => (await c.get(id)).attributes.pps_bin_id as string | null;

  it("Events: order_information attributes pps_bin_id | a modify that leaves the request not_fulfillable frees its bin → null in the notification, the GET and the station", async () => {
    await c.create(pickBody("BIN1", [pickLine("BIN1-1", "B", 1)]));
    await c.stock("SB", "MB", "B", 1);
    expect((await c.modify("BIN1", {})).status).toBe(202);
    const bin = await binOf("BIN1");
    expect(bin).not.toBeNull();
    await central.mark();
    expect(
      (await c.modify("BIN1", { serviceRequests: [lineChange("BIN1-1", { quantity: 9 })] })).status,
    ).toBe(202);
    const notes = await central.since();
    expect(kinds(notes)).toEqual([
      ["order_modification", "success"],
      ["order_information", "not_fulfillable"],
    ]);
    expect(notes[1]?.notification_data.attributes.pps_bin_id).toBeNull();
    expect(await binOf("BIN1")).toBeNull();
    const bins = (await ok(central.call("GET", "/station/state"))).bins as Json[];
    expect(bins.find((b) => b.ppsBinId === bin)?.state).toBe("empty");
    expect((await c.cancel("BIN1")).status).toBe(202);
  });

  it("Events: order_information attributes pps_bin_id | a modify that holds the request back (pick_after_time) frees its bin → null; one that keeps it fulfillable keeps and names its bin", async () => {
    await c.create(pickBody("BIN2", [pickLine("BIN2-1", "A", 1)]));
    const bin = await binOf("BIN2");
    expect(bin).not.toBeNull();
    await central.mark();
    expect((await c.modify("BIN2", { attributes: { simple_priority: "high" } })).status).toBe(202);
    expect(orderInfos(await central.since(), "BIN2").map((i) => i.attributes.pps_bin_id)).toEqual([bin]);
    expect(await binOf("BIN2")).toBe(bin);
    const later = new Date(central.t.clock.now + 3600_000).toISOString();
    expect((await c.modify("BIN2", { attributes: { pick_after_time: later } })).status).toBe(202);
    expect(orderInfos(await central.since(), "BIN2").map((i) => i.attributes.pps_bin_id)).toEqual([null]);
    expect(await binOf("BIN2")).toBeNull();
    expect((await c.cancel("BIN2")).status).toBe(202);
  });
});
