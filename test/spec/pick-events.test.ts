import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Envelope, type Json, kinds, ok, pickBody, pickLine, seedItem } from "../support/station.js";
import { CENTRAL, ROOT } from "../support/sync/agent.js";
import { subscribe } from "../support/sync/subscriber.js";
import { pickCalls } from "./pick-support.js";
import { type Central, startCentral } from "./support/central.js";

/**
 * Conformance: "Events" → order_information at each state it names (the full current Service Request
 * object), bin_complete, emission rule 2 (item picked, every pick actual container state), and
 * "How a client subscribes and where notifications are delivered: not shown" (docs/mqtt.md: the
 * `notification` topic, QoS 1, not retained). Read off the embedded broker as central receives them.
 */
let central: Central;
let c: ReturnType<typeof pickCalls>;
const OPTIONS = { priority: 1, bintags: ["b"] };
const NOTIFICATION = `${ROOT}/notification`;

beforeAll(async () => {
  central = await startCentral();
  c = pickCalls(central.t);
  for (const sku of ["E", "F", "G", "H"]) await seedItem(central.t, sku);
  await ok(central.t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => {
  await central?.close();
});

const received = (action: () => Promise<unknown>) => central.during(action);

const MEMBERS = ["type", "state", "status", "externalServiceRequestId", "createdOn", "expectations"];
const CONTEXT = ["execution_id", "pps_bin_id", "pps_id", "pps_seat_name", "user_name"];

/** The spec's "full current Service Request object" of an order_information, in `state` / `status`. */
function fullObject(n: Envelope | undefined, state: string, status: string): Json {
  expect(n?.notification_type).toBe("order_information");
  const data = n?.notification_data as Json;
  for (const k of [...MEMBERS, "serviceRequests", "actuals", "attributes"]) expect(data).toHaveProperty(k);
  expect(data).toMatchObject({ type: "PICK", state, status });
  expect(data.serviceRequests[0]).toMatchObject({ type: "PICK_LINE" });
  expect(data.attributes.order_options).toEqual(OPTIONS);
  for (const k of CONTEXT) expect(data.attributes).toHaveProperty(k);
  expect(data.attributes).toMatchObject({ pps_id: "7", execution_id: `7-${data.id}` });
  return data;
}

const order = (id: string, sku: string, qty: number) =>
  c.create(pickBody(id, [pickLine(`${id}-1`, sku, qty)], { order_options: OPTIONS }));

describe("order_information: a pick request reaches each state", () => {
  it("Events: order_information | pick request reaches fulfillable (status PROCESSING), the full current Service Request object", async () => {
    await c.stock("S1", "M1", "E", 3);
    const got = await received(() => order("E1", "E", 3));
    expect(got).toHaveLength(1);
    const data = fullObject(got[0], "fulfillable", "PROCESSING");
    expect(typeof data.attributes.pps_bin_id).toBe("string");
    expect(data.actuals).toBeNull();
  });

  it("Events: order_information | reaches cancellation_locked (first rack reached)", async () => {
    const got = await received(() => c.present("M1", ["S1"]));
    expect(got).toHaveLength(1);
    fullObject(got[0], "cancellation_locked", "PROCESSING");
  });

  it("Events: order_information | reaches pick_started; also on every pick transaction (item picked)", async () => {
    for (const n of [1, 2]) {
      const got = await received(async () => expect((await c.pick("E1", "E1-1", "S1", 1)).status).toBe(200));
      expect(got).toHaveLength(1);
      const data = fullObject(got[0], "pick_started", "PROCESSING");
      expect(data.attributes).toMatchObject({ user_name: "alice", pps_seat_name: "front" });
      expect(data.actuals.containers).toHaveLength(n);
      expect(data.serviceRequests[0].actuals.containers).toHaveLength(n);
    }
  });

  it("Events: order_information | reaches complete (status PROCESSED); bin_complete | ppsId (integer), ppsBinId (string), serviceRequests (list of completed pick Service Request objects)", async () => {
    const got = await received(async () => expect((await c.pick("E1", "E1-1", "S1", 1)).status).toBe(200));
    expect(kinds(got)).toEqual([
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    const done = fullObject(got[0], "complete", "PROCESSED");
    const bin = got[1]?.notification_data as Json;
    expect(Object.keys(bin).sort()).toEqual(["ppsBinId", "ppsId", "serviceRequests"]);
    expect(bin.ppsId).toBe(7);
    expect(bin.ppsBinId).toBe(done.attributes.pps_bin_id);
    expect(typeof bin.ppsBinId).toBe("string");
    expect(bin.serviceRequests).toHaveLength(1);
    expect(bin.serviceRequests[0]).toMatchObject({ externalServiceRequestId: "E1", state: "complete" });
    expect(bin.serviceRequests[0].serviceRequests).toEqual(done.serviceRequests);
    expect((await c.empty(bin.ppsBinId)).status).toBe(200);
    await c.gone("M1");
  });

  it("Events: order_information | reaches not_fulfillable (status FAILED), then cancelled (status CANCELLED) after a cancel", async () => {
    const failed = await received(() => order("E2", "F", 2));
    expect(failed).toHaveLength(1);
    expect(fullObject(failed[0], "not_fulfillable", "FAILED").attributes.pps_bin_id).toBeNull();
    const cancelled = await received(async () => expect((await c.cancel("E2")).status).toBe(202));
    expect(kinds(cancelled)[0]).toEqual(["order_modification", "success"]);
    expect(cancelled).toHaveLength(2);
    fullObject(cancelled[1], "cancelled", "CANCELLED");
  });

  it("Events: order_information | reaches abandoned (status CANCELLED): partially complete because inventory is missing", async () => {
    await c.stock("S3", "M3", "G", 2);
    await order("E3", "G", 2);
    await c.present("M3", ["S3"]);
    const got = await received(async () => {
      expect((await c.pick("E3", "E3-1", "S3", 1)).status).toBe(200);
      expect((await c.exception("E3", "E3-1", 1, "item_missing", "S3")).status).toBe(200);
    });
    expect(kinds(got).map((k) => k[1])).toEqual(["pick_started", "pick_started", "abandoned", undefined]);
    const data = fullObject(got[2], "abandoned", "CANCELLED");
    expect(got[3]?.notification_data.serviceRequests[0].state).toBe("abandoned");
    expect((await c.empty(data.attributes.pps_bin_id)).status).toBe(200);
    await c.gone("M3");
  });
});

describe("order_information: the client's attributes", () => {
  it("Events: order_information | attributes (order_options, …) (decision: order_options as the client sent it, absent when it sent none)", async () => {
    const made = await received(() => c.create(pickBody("E6", [pickLine("E6-1", "F", 1)])));
    expect(kinds(made)).toEqual([["order_information", "not_fulfillable"]]);
    expect(made[0]?.notification_data.attributes).not.toHaveProperty("order_options");
    const modified = await received(() => c.modify("E6", { attributes: { order_options: OPTIONS } }));
    expect(kinds(modified).map((k) => k[0])).toEqual(["order_modification", "order_information"]);
    fullObject(modified[1], "not_fulfillable", "FAILED");
    await c.cancel("E6");
  });
});

describe("item picked notifications (emission rule 2)", () => {
  it("Emission rule 2: item picked notifications contain the complete current state; actuals containers of each state complete, item_missing, physically_damaged, unscannable (and missing), with package_name and package_count on products", async () => {
    await c.stock("S4", "M4", "H", 5);
    await order("E4", "H", 5);
    await c.present("M4", ["S4"]);
    const states = ["complete", "item_missing", "physically_damaged", "unscannable", "missing"];
    const got = await received(async () => {
      expect((await c.pick("E4", "E4-1", "S4", 1)).status).toBe(200);
      for (const reason of states.slice(1))
        expect((await c.exception("E4", "E4-1", 1, reason, "S4")).status).toBe(200);
    });
    const infos = got.filter((n) => n.notification_type === "order_information");
    expect(infos).toHaveLength(6);
    states.forEach((_, i) => {
      const data = fullObject(infos[i], "pick_started", "PROCESSING");
      const containers = data.actuals.containers as Json[];
      expect(containers.map((x) => x.state)).toEqual(states.slice(0, i + 1));
      expect(data.serviceRequests[0].actuals.containers).toEqual(containers);
      for (const x of containers) {
        expect(x).toMatchObject({ type: "VIRTUAL", containerAttributes: { location: "S4" } });
        expect(x.products[0].productAttributes).toMatchObject({
          pdfa_values: { product_sku: "H" },
          package_name: "each",
          package_count: 1,
        });
      }
    });
    expect(infos[5]?.notification_data.state).toBe("abandoned");
    const bin = got.at(-1)?.notification_data as Json;
    expect((await c.empty(bin.ppsBinId)).status).toBe(200);
    await c.gone("M4");
  });
});

describe("delivery (Events: not shown → docs/mqtt.md)", () => {
  it("Events: How a client subscribes and where notifications are delivered: not shown (decision: topic ppsedge/v1/<site>/<ppsId>/notification, QoS 1, not retained)", async () => {
    await c.stock("S5", "M5", "E", 1);
    await central.mark();
    const before = central.broker.on(NOTIFICATION).length;
    await order("E5", "E", 1);
    const got = await central.since();
    expect(kinds(got)).toEqual([["order_information", "fulfillable"]]);
    const message = central.broker.on(NOTIFICATION)[before];
    expect(message).toMatchObject({ topic: "ppsedge/v1/dc1/7/notification", qos: 1, retain: false });
    expect(JSON.parse(message?.payload as string)).toEqual(got[0]);
    // a client subscribing afterwards gets the retained station state, but no notification
    const late = await subscribe(
      central.t.agent.sync.url as string,
      [NOTIFICATION, `${ROOT}/state/station`],
      CENTRAL,
    );
    try {
      await late.waitFor("state/station", (m) => m.some((x) => x.topic.endsWith("/state/station")));
      await new Promise((r) => setTimeout(r, 200));
      expect(late.on(NOTIFICATION)).toEqual([]);
    } finally {
      await late.close();
    }
    await c.cancel("E5");
  });
});
