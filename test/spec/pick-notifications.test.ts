import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAgent } from "../helpers/agent.js";
import { type Envelope, type Json, kinds, ok, pickBody, pickLine, seedItem } from "../helpers/station.js";
import { agentOn, ask, CENTRAL, committed, ROOT } from "../sync/support/agent.js";
import { type Subscriber, subscribe } from "../sync/support/subscriber.js";
import { pickCalls } from "./pick-support.js";

/**
 * Conformance: "Events" (order_information, order_modification, bin_complete, emission rules 1, 2 and 6)
 * and the pick actual container states, read off the embedded broker by a subscriber with central's
 * credentials, as an integrator receives them.
 */
const NOTIFICATION = `${ROOT}/notification`;
let t: TestAgent;
let central: Subscriber;
let c: ReturnType<typeof pickCalls>;
const item: Record<string, number> = {};

beforeAll(async () => {
  t = await agentOn("embedded");
  central = await subscribe(t.agent.sync.url as string, [NOTIFICATION, `${ROOT}/response/#`], CENTRAL);
  c = pickCalls(t);
  for (const sku of ["A", "B", "C", "PK"]) item[sku] = await seedItem(t, sku);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => {
  await central?.close();
  await t?.close();
});

/** Runs `action`, then returns every notification it committed as the broker delivered them. */
async function received(action: () => Promise<unknown>): Promise<Envelope[]> {
  const from = committed(t).length;
  await action();
  const to = committed(t).length;
  await central.waitFor(`${to} notifications`, () => central.on(NOTIFICATION).length >= to);
  return central
    .on(NOTIFICATION)
    .slice(from, to)
    .map((m) => JSON.parse(m.payload) as Envelope);
}

const CONTEXT = ["execution_id", "pps_bin_id", "pps_id", "pps_seat_name", "user_name"];

describe("order_information: the full current Service Request object", () => {
  it("Events: order_information (fulfillable) | attributes (order_options, execution_id, pps_bin_id, pps_id, pps_seat_name, user_name)", async () => {
    await c.stock("SA", "MA", "A", 10);
    const got = await received(() =>
      c.create(pickBody("N1", [pickLine("N1-1", "A", 2)], { order_options: { bintags: ["cold"] } })),
    );
    expect(kinds(got)).toEqual([["order_information", "fulfillable"]]);
    const data = got[0]?.notification_data as Json;
    for (const k of ["type", "state", "status", "externalServiceRequestId", "createdOn", "expectations"])
      expect(data).toHaveProperty(k);
    expect(data.serviceRequests).toHaveLength(1);
    expect(data.attributes).toMatchObject({ order_options: { bintags: ["cold"] }, pps_id: "7" });
    for (const k of CONTEXT) expect(data.attributes).toHaveProperty(k);
    expect(data.attributes.execution_id).toBe(`7-${data.id}`);
    expect(typeof data.attributes.pps_bin_id).toBe("string");
  });

  it("Emission rule 2: item picked notifications carry the complete current state; actuals containers with package_name and package_count; the root actuals gather the lines'", async () => {
    await c.present("MA", ["SA"]);
    const got = await received(async () => {
      expect((await c.pick("N1", "N1-1", "SA", 1)).status).toBe(200);
      expect((await c.exception("N1", "N1-1", 1, "physically_damaged")).status).toBe(200);
    });
    const infos = got
      .filter((x) => x.notification_type === "order_information")
      .map((x) => x.notification_data);
    expect(infos.map((i) => i.state)).toEqual(["pick_started", "pick_started", "abandoned"]);
    const last = infos[2] as Json;
    expect(last.attributes).toMatchObject({ user_name: "alice", pps_seat_name: "front" });
    const lineContainers = last.serviceRequests[0].actuals.containers;
    expect(last.actuals.containers).toEqual(lineContainers);
    expect(lineContainers.map((x: Json) => [x.state, x.containerAttributes])).toEqual([
      ["complete", { location: "SA" }],
      ["physically_damaged", { location: "SA" }],
    ]);
    expect(lineContainers[1].products[0].productAttributes).toMatchObject({
      pdfa_values: { product_sku: "A" },
      package_name: "each",
      package_count: 1,
    });
    const bin = got.find((x) => x.notification_type === "bin_complete")?.notification_data as Json;
    expect(bin).toMatchObject({ ppsId: 7, serviceRequests: [{ externalServiceRequestId: "N1" }] });
    expect((await c.empty(bin.ppsBinId)).status).toBe(200);
    await c.gone("MA");
  });

  it("Pick actuals: container state missing (the slot is empty) is distinct from item_missing", async () => {
    await c.stock("SB", "MB", "B", 6);
    await c.create(pickBody("N2", [pickLine("N2-1", "B", 2)]));
    await c.present("MB", ["SB"]);
    const got = await received(async () => {
      expect((await c.exception("N2", "N2-1", 1, "item_missing", "SB")).status).toBe(200);
      expect((await c.exception("N2", "N2-1", 1, "missing", "SB")).status).toBe(200);
    });
    const last = got.filter((x) => x.notification_type === "order_information").at(-1)
      ?.notification_data as Json;
    expect(last.state).toBe("abandoned");
    expect(last.actuals.containers.map((x: Json) => x.state)).toEqual(["item_missing", "missing"]);
    // item_missing wrote down one; missing emptied the slot
    expect(c.onHand("SB", item.B as number)).toMatchObject({ quantity: 0, reserved: 0 });
    expect((await c.empty(last.attributes.pps_bin_id)).status).toBe(200);
    await c.gone("MB");
  });
});

describe("order_modification (emission rule 1)", () => {
  it("Emission rule 1: a successful pick cancel → order_modification success (id = the transaction id), then order_information cancelled", async () => {
    await c.stock("SC", "MC", "C", 5);
    await c.create(pickBody("N3", [pickLine("N3-1", "C", 1)]));
    let tx = 0;
    const got = await received(async () => {
      const res = await c.cancel("N3");
      tx = ((await res.json()) as { id: number }).id;
    });
    expect(kinds(got)).toEqual([
      ["order_modification", "success"],
      ["order_information", "cancelled"],
    ]);
    expect(got[0]?.notification_data).toMatchObject({ state: "success", id: tx });
  });

  it("Emission rule 1: a successful pick modify → order_modification success, then order_information for the resulting request", async () => {
    await c.create(pickBody("N4", [pickLine("N4-1", "C", 1)]));
    const got = await received(() => c.modify("N4", { attributes: { simple_priority: "high" } }));
    expect(kinds(got)).toEqual([
      ["order_modification", "success"],
      ["order_information", "fulfillable"],
    ]);
    expect(got[1]?.notification_data.attributes).toMatchObject({ simple_priority: "high" });
    await c.cancel("N4");
  });
});

describe("the same over MQTT requests", () => {
  it("Modify pick over MQTT (modify_service_request): a partial update, answered with the transaction id that order_modification carries", async () => {
    await c.create(
      pickBody("N7", [pickLine("N7-1", "C", 1), pickLine("N7-2", "C", 1)], {
        simple_priority: "low",
        order_options: { priority: 2 },
      }),
    );
    let answer: Json = {};
    const got = await received(async () => {
      answer = JSON.parse(
        await ask(central, "modify_service_request", {
          transaction: "m-1",
          externalServiceRequestId: "N7",
          type: "PICK",
          attributes: { simple_priority: "high" },
          serviceRequests: [
            {
              externalServiceRequestId: "N7-2",
              expectations: { containers: [{ products: [{ productQuantity: 0 }] }] },
            },
          ],
        }),
      ) as Json;
    });
    expect(answer).toMatchObject({ transaction: "m-1", status: "ok", error: null });
    expect(kinds(got)).toEqual([
      ["order_modification", "success"],
      ["order_information", "fulfillable"],
    ]);
    expect(got[0]?.notification_data.id).toBe(answer.data.id);
    const info = got[1]?.notification_data as Json;
    expect(info.attributes).toMatchObject({ simple_priority: "high", order_options: { priority: 2 } });
    expect(info.serviceRequests.map((l: Json) => l.externalServiceRequestId)).toEqual(["N7-1"]);
    await c.cancel("N7");
  });
});

describe("pick+pack (emission rule 6)", () => {
  const pack = { packing_box_id: "BOX-1", order_number: "O-1", shipping_address: "1 Main St" };

  it("Emission rule 6: pack-end payload (pack_information) lists the products packed: productQuantity and productAttributes of each item", async () => {
    await c.stock("SP", "MP", "PK", 5);
    await c.create(pickBody("N5", [pickLine("N5-1", "PK", 2, pack)]));
    await c.present("MP", ["SP"]);
    const done = await received(async () => {
      expect((await c.pick("N5", "N5-1", "SP", 2)).status).toBe(200);
    });
    expect(kinds(done)).toEqual([
      ["order_information", "pick_started"],
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    expect(done[1]?.notification_data.attributes.olpn).toBe("BOX-1");
    const bin = done[2]?.notification_data.ppsBinId as string;
    expect((await c.empty(bin)).status).toBe(409);
    const packed = await received(async () => expect((await c.printReady("N5")).status).toBe(200));
    expect(kinds(packed)).toEqual([["pack_information", undefined]]);
    const data = packed[0]?.notification_data as Json;
    expect(data).toMatchObject({
      externalServiceRequestId: "N5",
      packing_box_id: "BOX-1",
      output_location_id: bin,
    });
    expect(typeof data.packedOn).toBe("string");
    expect(data.products).toEqual([
      { productQuantity: 2, productAttributes: { pdfa_values: { product_sku: "PK" } } },
    ]);
    expect((await c.empty(bin)).status).toBe(200);
  });

  it("Emission rule 6: an abandoned pick+pack does not wait for print_ready; no pack-end payload", async () => {
    await c.create(pickBody("N6", [pickLine("N6-1", "PK", 2, pack)]));
    const got = await received(async () => {
      expect((await c.pick("N6", "N6-1", "SP", 1)).status).toBe(200);
      expect((await c.exception("N6", "N6-1", 1, "unscannable")).status).toBe(200);
    });
    expect(kinds(got).at(-1)).toEqual(["bin_complete", undefined]);
    expect(kinds(got)).toContainEqual(["order_information", "abandoned"]);
    expect((await c.printReady("N6")).status).toBe(400);
    expect((await c.empty(got.at(-1)?.notification_data.ppsBinId)).status).toBe(200);
    await c.gone("MP");
  });
});
