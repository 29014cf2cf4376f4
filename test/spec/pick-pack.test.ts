import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Envelope, type Json, kinds, ok, pickBody, pickLine, SR, seedItem } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { pickCalls } from "./pick-support.js";
import { type Central, startCentral } from "./support/central.js";

/**
 * Conformance: "Pick request" → Pick+pack (line attributes, root order_options.bintags) and emission
 * rule 6 (start, exception and complete notifications, the pack-end payload), read off the embedded
 * broker as central receives them; print_ready over HTTP and over MQTT.
 */
let central: Central;
let c: ReturnType<typeof pickCalls>;
const PACK = {
  shipping_address: "1 Main St",
  carrier_label_url: "https://carrier.example/l/1",
  packing_box_id: "BOX-2",
  packing_box_type: "S",
  order_number: "O-2",
};

beforeAll(async () => {
  central = await startCentral();
  c = pickCalls(central.t);
  await seedItem(central.t, "PK");
  await seedItem(central.t, "PQ");
  await seedItem(central.t, "PR");
  await ok(central.t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => {
  await central?.close();
});

const received = (action: () => Promise<unknown>) => central.during(action);

const infos = (got: Envelope[]) =>
  got.filter((n) => n.notification_type === "order_information").map((n) => n.notification_data as Json);

/** A pick+pack of `qty` of PQ at slot SQ, its rack presented: cancellation_locked, with a bin. */
async function locked(id: string, qty: number, attributes: Json = PACK) {
  await c.stock("SQ", "MQ", "PQ", qty);
  await c.create(pickBody(id, [pickLine(`${id}-1`, "PQ", qty, attributes)]));
  await c.present("MQ", ["SQ"]);
  expect((await c.get(id)).state).toBe("cancellation_locked");
}

/** The bin of a finished pick+pack emptied and its rack gone, for the next test. */
async function clear(bin: string) {
  expect((await c.empty(bin)).status).toBe(200);
  await c.gone("MQ");
}

describe("pick+pack: the pack-end payload (emission rule 6)", () => {
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

describe("pick+pack notifications (emission rule 6)", () => {
  it("Emission rule 6: start notification has state `pick_started`", async () => {
    await locked("K1", 2);
    const got = await received(async () => expect((await c.pick("K1", "K1-1", "SQ", 1)).status).toBe(200));
    expect(kinds(got)).toEqual([["order_information", "pick_started"]]);
    const start = infos(got)[0] as Json;
    expect(start).toMatchObject({ status: "PROCESSING", attributes: { pps_id: "7", user_name: "alice" } });
    expect(start.serviceRequests[0].attributes).toEqual(PACK);
    const done = await received(async () => expect((await c.pick("K1", "K1-1", "SQ", 1)).status).toBe(200));
    expect((await c.printReady("K1")).status).toBe(200);
    await clear(done.at(-1)?.notification_data.ppsBinId);
  });

  it("Emission rule 6: exception notification carries actuals container state such as `item_missing/item_damage` (decision: item_missing for a missing item, physically_damaged for a damaged one, as in every pick)", async () => {
    await locked("K2", 3);
    const got = await received(async () => {
      expect((await c.pick("K2", "K2-1", "SQ", 1)).status).toBe(200);
      expect((await c.exception("K2", "K2-1", 1, "item_missing", "SQ")).status).toBe(200);
      expect((await c.exception("K2", "K2-1", 1, "physically_damaged", "SQ")).status).toBe(200);
    });
    const [, missing, damaged] = infos(got);
    expect(missing?.actuals.containers.map((x: Json) => x.state)).toEqual(["complete", "item_missing"]);
    const states = damaged?.actuals.containers.map((x: Json) => x.state);
    expect(states).toEqual(["complete", "item_missing", "physically_damaged"]);
    expect(JSON.stringify(got)).not.toContain("item_damage");
    expect(infos(got).at(-1)?.state).toBe("abandoned");
    await clear(got.at(-1)?.notification_data.ppsBinId);
  });

  it("Emission rule 6: complete notification has status `complete` and may carry attribute `olpn` (decision: state `complete`, status `PROCESSED`, attributes.olpn a string)", async () => {
    const cases: Array<[string, Json, (id: number) => string]> = [
      ["K3", PACK, () => "BOX-2"],
      ["K4", { packing_box_type: "S", order_number: "O-4" }, (id) => `7-${id}`],
    ];
    for (const [id, attributes, olpn] of cases) {
      await locked(id, 1, attributes);
      const got = await received(async () => expect((await c.pick(id, `${id}-1`, "SQ", 1)).status).toBe(200));
      expect(kinds(got)).toEqual([
        ["order_information", "pick_started"],
        ["order_information", "complete"],
        ["bin_complete", undefined],
      ]);
      const complete = infos(got)[1] as Json;
      expect(complete.status).toBe("PROCESSED");
      expect(complete.attributes.olpn).toBe(olpn(complete.id));
      expect((await c.printReady(id)).status).toBe(200);
      await clear(got.at(-1)?.notification_data.ppsBinId);
    }
  });

  it("Emission rule 6: the pack-end payload after print_ready over MQTT (print_ready) is the same pack_information", async () => {
    await locked("K5", 2);
    const done = await received(async () => expect((await c.pick("K5", "K5-1", "SQ", 2)).status).toBe(200));
    const bin = done.at(-1)?.notification_data.ppsBinId as string;
    let answer: Json = {};
    const packed = await received(async () => {
      const body = { transaction: "pr-5", externalServiceRequestId: "K5" };
      answer = JSON.parse(await ask(central.broker, "print_ready", body)) as Json;
    });
    expect(answer).toMatchObject({ status: "ok", data: { externalServiceRequestId: "K5" } });
    expect(kinds(packed)).toEqual([["pack_information", undefined]]);
    expect(packed[0]?.notification_data).toMatchObject({
      externalServiceRequestId: "K5",
      packing_box_id: "BOX-2",
      output_location_id: bin,
      products: [{ productQuantity: 2, productAttributes: { pdfa_values: { product_sku: "PQ" } } }],
    });
    // packedOn: the time of the print_ready, as every timestamp the agent emits (UTC, ISO 8601, Z)
    expect(packed[0]?.notification_data.packedOn).toBe(new Date(central.t.clock.now).toISOString());
    await clear(bin);
  });

  it("Emission rule 6: pack-end products (list of productQuantity and productAttributes): one entry per item packed, the quantity picked of it, not the lines' filter strings", async () => {
    await c.stock("SQ", "MQ", "PQ", 3);
    await c.stock("SR", "MQ", "PR", 1);
    const lines = [
      pickLine("K8-1", "PQ", 2, PACK),
      pickLine("K8-2", "PR", 1, PACK),
      pickLine("K8-3", "PQ", 1),
    ];
    await c.create(pickBody("K8", lines));
    await c.present("MQ", ["SQ", "SR"]);
    const done = await received(async () => {
      expect((await c.pick("K8", "K8-1", "SQ", 2)).status).toBe(200);
      expect((await c.pick("K8", "K8-2", "SR", 1)).status).toBe(200);
      expect((await c.pick("K8", "K8-3", "SQ", 1)).status).toBe(200);
    });
    expect(infos(done).at(-1)?.state).toBe("complete");
    const packed = await received(async () => expect((await c.printReady("K8")).status).toBe(200));
    expect(packed[0]?.notification_data.products).toEqual([
      { productQuantity: 3, productAttributes: { pdfa_values: { product_sku: "PQ" } } },
      { productQuantity: 1, productAttributes: { pdfa_values: { product_sku: "PR" } } },
    ]);
    await clear(done.at(-1)?.notification_data.ppsBinId);
  });
});

describe("pick+pack requests", () => {
  it("Pick request: a pick+pack line attribute that is not a string (shipping_address, carrier_label_url, packing_box_id, packing_box_type, order_number) → 400 naming the field; nothing created", async () => {
    for (const [i, k] of Object.keys(PACK).entries()) {
      const id = `KB${i}`;
      const body = pickBody(id, [pickLine(`${id}-1`, "PK", 1, { ...PACK, [k]: 5 })]);
      const res = await central.t.call("POST", SR, body);
      expect(res.status).toBe(400);
      const err = (await res.json()) as Json;
      expect(err.code).toBe("validation_failed");
      expect(err.errors[0].path).toBe(`serviceRequests.0.attributes.${k}`);
      expect((await central.t.call("GET", `${SR}/${id}?type=PICK`)).status).toBe(404);
    }
  });

  it("Pick request: pick+pack root order_options may include bintags (a list of strings); another type → 400 naming it, nothing created", async () => {
    const tags = { order_options: { bintags: ["cold", "fragile"] } };
    const made = await c.create(pickBody("K6", [pickLine("K6-1", "PK", 1, PACK)], tags));
    expect(made.attributes.order_options).toEqual(tags.order_options);
    expect((await c.cancel("K6")).status).toBe(202);
    for (const bad of ["cold", [1], { a: "b" }]) {
      const body = pickBody("K7", [pickLine("K7-1", "PK", 1, PACK)], { order_options: { bintags: bad } });
      const res = await central.t.call("POST", SR, body);
      expect(res.status).toBe(400);
      const err = (await res.json()) as Json;
      expect(err.code).toBe("validation_failed");
      expect(err.errors[0].path).toMatch(/^attributes\.order_options\.bintags/);
      expect((await central.t.call("GET", `${SR}/K7?type=PICK`)).status).toBe(404);
    }
  });
});

describe("pick+pack modify", () => {
  it("Pick request: a modify giving a pick+pack line attribute or bintags of another type → 400 naming the field; nothing changed", async () => {
    const tags = { order_options: { bintags: ["cold"] } };
    await c.create(pickBody("K9", [pickLine("K9-1", "PK", 1, PACK)], tags));
    const changes: Array<[Json, string]> = [
      [
        { serviceRequests: [{ externalServiceRequestId: "K9-1", attributes: { packing_box_id: 7 } }] },
        "serviceRequests.0.attributes.packing_box_id",
      ],
      [{ attributes: { order_options: { bintags: "warm" } } }, "attributes.order_options.bintags"],
    ];
    for (const [change, path] of changes) {
      const res = await c.modify("K9", change);
      expect(res.status).toBe(400);
      const err = (await res.json()) as Json;
      expect(err.code).toBe("validation_failed");
      expect(err.errors[0].path).toBe(path);
    }
    const after = await c.get("K9");
    expect(after.attributes.order_options).toEqual(tags.order_options);
    expect(after.serviceRequests[0].attributes).toEqual(PACK);
    expect((await c.cancel("K9")).status).toBe(202);
  });
});

describe("which pick is a pick+pack (decision: docs/decisions.md#service-requests-pick-pickpack-put)", () => {
  const plain = { order_number: "O-7", shipping_address: "7 Side St" };

  it("Pick+pack: a pick request whose pick lines carry `attributes` … order_number (all strings): order_number and shipping_address alone make a plain pick: no olpn, its bin is emptied without print_ready, over HTTP", async () => {
    await locked("K10", 1, plain);
    const got = await received(async () => expect((await c.pick("K10", "K10-1", "SQ", 1)).status).toBe(200));
    const complete = infos(got)[1] as Json;
    expect([complete.state, complete.attributes.olpn]).toEqual(["complete", undefined]);
    expect(complete.serviceRequests[0].attributes).toEqual(plain);
    expect((await c.printReady("K10")).status).toBe(400);
    await clear(got.at(-1)?.notification_data.ppsBinId);
  });

  it("Pick+pack: the same over MQTT (create_service_request): an order_number line is a plain pick; a packing_box_type line is a pick+pack", async () => {
    const create = async (id: string, attributes: Json) => {
      const body = { transaction: `pp-${id}`, ...pickBody(id, [pickLine(`${id}-1`, "PQ", 1, attributes)]) };
      expect(JSON.parse(await ask(central.broker, "create_service_request", body)).status).toBe("ok");
    };
    for (const [id, attributes, waits] of [
      ["K11", plain, false],
      ["K12", { packing_box_type: "M" }, true],
    ] as const) {
      await c.stock("SQ", "MQ", "PQ", 1);
      await create(id, attributes);
      await c.present("MQ", ["SQ"]);
      const got = await received(async () => expect((await c.pick(id, `${id}-1`, "SQ", 1)).status).toBe(200));
      const bin = got.at(-1)?.notification_data.ppsBinId as string;
      expect((await c.empty(bin)).status).toBe(waits ? 409 : 200);
      if (waits) expect((await c.printReady(id)).status).toBe(200);
      if (waits) expect((await c.empty(bin)).status).toBe(200);
      await c.gone("MQ");
    }
  });
});
