import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kinds, pickBody, pickLine } from "../support/station.js";
import { orderInfos, pickStation } from "./pick-support.js";
import type { Central } from "./support/central.js";

/**
 * Conformance: the spec's "States and transitions" → "Pick request" table, over HTTP; each test names
 * the row it checks ("state | trigger → next state | also").
 */
let central: Central;
let c: Awaited<ReturnType<typeof pickStation>>["c"];
let item: Record<string, number>;
let locked: Awaited<ReturnType<typeof pickStation>>["locked"];

beforeAll(async () => {
  ({ central, c, item, locked } = await pickStation(["A", "B", "C", "D", "E", "F", "G"]));
});
afterAll(async () => central?.close());

describe("Pick request state table", () => {
  it("Pick request: (none) | create request | valid body → created (status CREATED) | response returns the object", async () => {
    await c.stock("SA", "MA", "A", 10);
    const created = await c.create(pickBody("R1", [pickLine("R1-1", "A", 1)]));
    expect(created).toMatchObject({
      externalServiceRequestId: "R1",
      type: "PICK",
      status: "CREATED",
      state: "CREATED",
      serviceRequests: [{ externalServiceRequestId: "R1-1", type: "PICK_LINE" }],
    });
    expect(typeof created.id).toBe("number");
    for (const k of ["receivedOn", "createdOn", "updatedOn"]) expect(typeof created[k]).toBe("string");
    expect((await c.cancel("R1")).status).toBe(202);
  });

  it("Pick request: created | inventory available and blocked → fulfillable (status PROCESSING) | order_information notification", async () => {
    await central.mark();
    await c.create(pickBody("R2", [pickLine("R2-1", "A", 4)]));
    const list = await central.since();
    expect(kinds(list)).toEqual([["order_information", "fulfillable"]]);
    expect(list[0]?.notification_data).toMatchObject({ state: "fulfillable", status: "PROCESSING" });
    expect(c.onHand("SA", item.A as number)).toMatchObject({ quantity: 10, reserved: 4 });
    expect((await c.cancel("R2")).status).toBe(202);
    expect(c.onHand("SA", item.A as number)).toMatchObject({ reserved: 0 });
  });

  it("Pick request: created | inventory not available → not_fulfillable (status FAILED) | order_information notification", async () => {
    await central.mark();
    await c.create(pickBody("R3", [pickLine("R3-1", "A", 11)]));
    const list = await central.since();
    expect(kinds(list)).toEqual([["order_information", "not_fulfillable"]]);
    expect(list[0]?.notification_data).toMatchObject({ status: "FAILED" });
  });

  it("Pick request: fulfillable | first rack reached → cancellation_locked (status PROCESSING) | order_information notification", async () => {
    await c.stock("SB", "MB", "B", 3);
    await c.create(pickBody("R4", [pickLine("R4-1", "B", 2)]));
    await central.mark();
    await c.present("MB", ["SB"]);
    const list = await central.since();
    expect(kinds(list)).toEqual([["order_information", "cancellation_locked"]]);
    expect(list[0]?.notification_data.status).toBe("PROCESSING");
  });

  it("Pick request: cancellation_locked | first pick transaction done → pick_started (status PROCESSING) | order_information notification", async () => {
    await central.mark();
    expect((await c.pick("R4", "R4-1", "SB", 1)).status).toBe(200);
    const list = await central.since();
    expect(kinds(list)).toEqual([["order_information", "pick_started"]]);
    expect(list[0]?.notification_data.status).toBe("PROCESSING");
  });

  it("Pick request: pick_started | all picks done → complete (status PROCESSED) | order complete notification; bin complete notification", async () => {
    await central.mark();
    expect((await c.pick("R4", "R4-1", "SB", 1)).status).toBe(200);
    const list = await central.since();
    expect(kinds(list)).toEqual([
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    expect(list[0]?.notification_data.status).toBe("PROCESSED");
    expect(list[1]?.notification_data).toMatchObject({
      ppsId: 7,
      serviceRequests: [{ externalServiceRequestId: "R4", state: "complete" }],
    });
    expect((await c.empty(list[1]?.notification_data.ppsBinId)).status).toBe(200);
    await c.gone("MB");
  });

  it("Pick request: pick_started | each pick transaction → (state as reported in the item picked notification) | item picked notification with full current state", async () => {
    await locked("R5", "C", "SC", "MC", 3);
    await central.mark();
    for (const q of [1, 1]) expect((await c.pick("R5", "R5-1", "SC", q)).status).toBe(200);
    const infos = orderInfos(await central.since(), "R5");
    expect(infos.map((i) => i.state)).toEqual(["pick_started", "pick_started"]);
    // full current state: the second notification carries both transactions
    expect(infos[1]?.serviceRequests[0].actuals.containers).toHaveLength(2);
    expect(infos[1]?.actuals.containers).toHaveLength(2);
    expect((await c.pick("R5", "R5-1", "SC", 1)).status).toBe(200);
    const done = await central.since();
    expect((await c.empty(done[1]?.notification_data.ppsBinId)).status).toBe(200);
    await c.gone("MC");
  });

  it("Pick request: pick_started | partially complete because inventory is missing → abandoned (status CANCELLED) | abandoned notification", async () => {
    await locked("R6", "D", "SD", "MD", 3);
    expect((await c.pick("R6", "R6-1", "SD", 2)).status).toBe(200);
    await central.mark();
    expect((await c.exception("R6", "R6-1", 1, "item_missing")).status).toBe(200);
    const list = await central.since();
    expect(kinds(list)).toEqual([
      ["order_information", "pick_started"],
      ["order_information", "abandoned"],
      ["bin_complete", undefined],
    ]);
    expect(list[1]?.notification_data.status).toBe("CANCELLED");
    expect((await c.empty(list[2]?.notification_data.ppsBinId)).status).toBe(200);
    await c.gone("MD");
  });

  for (const from of ["fulfillable", "not_fulfillable"] as const) {
    it(`Pick request: before cancellation_locked (${from}) | cancel API call processed successfully → cancelled (status CANCELLED) | order_modification success, then order_information with state cancelled`, async () => {
      const id = `R7-${from}`;
      await c.create(pickBody(id, [pickLine(`${id}-1`, "A", from === "fulfillable" ? 1 : 99)]));
      expect((await c.get(id)).state).toBe(from);
      await central.mark();
      const res = await c.cancel(id);
      expect(res.status).toBe(202);
      const body = (await res.json()) as { id: number };
      const list = await central.since();
      expect(kinds(list)).toEqual([
        ["order_modification", "success"],
        ["order_information", "cancelled"],
      ]);
      expect(list[0]?.notification_data.id).toBe(body.id);
      expect(list[1]?.notification_data.status).toBe("CANCELLED");
    });
  }

  it("Pick request: Modify and cancel are allowed only before cancellation_locked (cancellation_locked and pick_started refuse: order_modification failure)", async () => {
    await locked("R8", "E", "SE", "ME", 2);
    await central.mark();
    expect((await c.cancel("R8")).status).toBe(202);
    expect((await c.modify("R8", { attributes: { simple_priority: "high" } })).status).toBe(202);
    expect((await c.pick("R8", "R8-1", "SE", 1)).status).toBe(200);
    expect((await c.cancel("R8")).status).toBe(202);
    expect(kinds(await central.since())).toEqual([
      ["order_modification", "failure"],
      ["order_modification", "failure"],
      ["order_information", "pick_started"],
      ["order_modification", "failure"],
    ]);
    expect((await c.get("R8")).state).toBe("pick_started");
    expect((await c.get("R8")).attributes.simple_priority).toBeUndefined();
  });
});
