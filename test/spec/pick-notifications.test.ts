import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Envelope, type Json, kinds, ok, pickBody, pickLine, seedItem } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { pickCalls } from "./pick-support.js";
import { type Central, startCentral } from "./support/central.js";

/**
 * Conformance: "Events" (order_information, order_modification and its failure under "Errors",
 * bin_complete), emission rules 1 and 2 and the pick actual container states, read off the embedded
 * broker by central as an integrator receives them, over HTTP and over MQTT. Pick+pack (rule 6) is in
 * pick-pack.test.ts; each state's order_information and the delivery topic in pick-events.test.ts.
 */
let central: Central;
let c: ReturnType<typeof pickCalls>;
const item: Record<string, number> = {};

beforeAll(async () => {
  central = await startCentral();
  c = pickCalls(central.t);
  for (const sku of ["A", "B", "C", "D"]) item[sku] = await seedItem(central.t, sku);
  await ok(central.t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => {
  await central?.close();
});

const received = (action: () => Promise<unknown>) => central.during(action);

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
        await ask(central.broker, "modify_service_request", {
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

describe("order_modification failure (Errors: Asynchronous failure)", () => {
  const failed = (got: Envelope[], tx: number, action: string) => {
    expect(kinds(got)).toEqual([["order_modification", "failure"]]);
    expect(got[0]?.notification_data).toMatchObject({
      state: "failure",
      id: tx,
      externalServiceRequestId: "N8",
      type: "PICK",
      action,
    });
    // docs/decisions.md#service-requests-pick-pickpack-put: a failure says why
    expect(typeof got[0]?.notification_data.reason).toBe("string");
  };

  it("Errors: Asynchronous failure: a failed pick cancel or modify is reported by an order_modification notification with state failure (over HTTP)", async () => {
    await c.stock("SD", "MD", "D", 4);
    await c.create(pickBody("N8", [pickLine("N8-1", "D", 1)]));
    await c.present("MD", ["SD"]);
    expect((await c.get("N8")).state).toBe("cancellation_locked");
    for (const [action, call] of [
      ["cancel", () => c.cancel("N8")],
      ["modify", () => c.modify("N8", { attributes: { simple_priority: "high" } })],
    ] as const) {
      let answer: Json = {};
      const got = await received(async () => {
        const res = await call();
        expect(res.status).toBe(202);
        answer = (await res.json()) as Json;
      });
      expect(answer).toMatchObject({ externalServiceRequestId: "N8", type: "PICK" });
      failed(got, answer.id, action);
    }
    const after = await c.get("N8");
    expect(after.state).toBe("cancellation_locked");
    expect(after.attributes.simple_priority).toBeUndefined();
  });

  it("Errors: Asynchronous failure: a failed pick cancel or modify is reported by an order_modification notification with state failure (over MQTT)", async () => {
    for (const [name, change] of [
      ["cancel_service_request", {}],
      ["modify_service_request", { attributes: { simple_priority: "high" } }],
    ] as const) {
      let answer: Json = {};
      const got = await received(async () => {
        const body = { transaction: `f-${name}`, externalServiceRequestId: "N8", type: "PICK", ...change };
        answer = JSON.parse(await ask(central.broker, name, body)) as Json;
      });
      expect(answer).toMatchObject({ status: "ok", data: { externalServiceRequestId: "N8", type: "PICK" } });
      failed(got, answer.data.id, name.split("_")[0] as string);
    }
    expect((await c.get("N8")).state).toBe("cancellation_locked");
    const done = await received(async () => expect((await c.pick("N8", "N8-1", "SD", 1)).status).toBe(200));
    expect((await c.empty(done.at(-1)?.notification_data.ppsBinId)).status).toBe(200);
    await c.gone("MD");
  });

  it("Emission rule 1: a successful pick cancel over MQTT (cancel_service_request) → order_modification success (id = the transaction id), then order_information cancelled", async () => {
    await c.create(pickBody("N9", [pickLine("N9-1", "D", 1)]));
    let answer: Json = {};
    const got = await received(async () => {
      const body = { transaction: "c-9", externalServiceRequestId: "N9", type: "PICK" };
      answer = JSON.parse(await ask(central.broker, "cancel_service_request", body)) as Json;
    });
    expect(answer).toMatchObject({ status: "ok", data: { externalServiceRequestId: "N9", type: "PICK" } });
    expect(kinds(got)).toEqual([
      ["order_modification", "success"],
      ["order_information", "cancelled"],
    ]);
    expect(got[0]?.notification_data).toMatchObject({ state: "success", id: answer.data.id });
    expect(got[1]?.notification_data).toMatchObject({ externalServiceRequestId: "N9", status: "CANCELLED" });
  });
});

describe("item picked: the root state agrees with its lines (emission rule 2)", () => {
  /** [root state, line states] of each order_information in `got`. */
  const states = (got: Envelope[]) =>
    got
      .filter((x) => x.notification_type === "order_information")
      .map((x) => [x.notification_data.state, x.notification_data.serviceRequests.map((l: Json) => l.state)]);

  it("Emission rule 2: Item picked notifications contain the complete current state of the request: an exception that is the pick's last transaction → pick_started with its lines not yet abandoned, then abandoned with the short line abandoned", async () => {
    await c.stock("SC", "MC", "C", 5);
    await c.create(pickBody("AG1", [pickLine("AG1-1", "C", 2), pickLine("AG1-2", "C", 1)]));
    await c.present("MC", ["SC"]);
    const got = await received(async () => {
      expect((await c.pick("AG1", "AG1-2", "SC", 1)).status).toBe(200);
      expect((await c.pick("AG1", "AG1-1", "SC", 1)).status).toBe(200);
      expect((await c.exception("AG1", "AG1-1", 1, "item_missing")).status).toBe(200);
    });
    expect(states(got)).toEqual([
      ["pick_started", ["fulfillable", "complete"]],
      ["pick_started", ["pick_started", "complete"]],
      ["pick_started", ["pick_started", "complete"]],
      // the complete line stays complete: it was picked in full
      ["abandoned", ["abandoned", "complete"]],
    ]);
    const bin = got.find((x) => x.notification_type === "bin_complete")?.notification_data as Json;
    expect((await c.empty(bin.ppsBinId)).status).toBe(200);
    await c.gone("MC");
  });

  it("Emission rule 2: the same when the first transaction is the last, an exception for the whole line: pick_started agrees with its line, then abandoned", async () => {
    await c.stock("SD", "MD", "D", 5);
    await c.create(pickBody("AG2", [pickLine("AG2-1", "D", 1)]));
    await c.present("MD", ["SD"]);
    const got = await received(async () => {
      expect((await c.exception("AG2", "AG2-1", 1, "physically_damaged")).status).toBe(200);
    });
    expect(states(got)).toEqual([
      ["pick_started", ["pick_started"]],
      ["abandoned", ["abandoned"]],
    ]);
    const bin = got.find((x) => x.notification_type === "bin_complete")?.notification_data as Json;
    expect((await c.empty(bin.ppsBinId)).status).toBe(200);
    await c.gone("MD");
  });
});
