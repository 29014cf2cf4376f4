import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import {
  CORE,
  kinds,
  NotificationReader,
  ok,
  pickBody,
  pickLine,
  SR,
  seedItem,
  setStock,
  stockOf,
} from "../../support/station.js";

let t: TestAgent;
let n: NotificationReader;
const item: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestAgent({ ppsId: "7", tokenTtlSeconds: 7 * 24 * 3600 });
  n = new NotificationReader(t);
  for (const sku of ["A", "B", "C", "D", "PK"]) item[sku] = await seedItem(t, sku);
  await setStock(t, "S1", "M1", "A", 10);
  await setStock(t, "S2", "M1", "B", 5);
  await setStock(t, "S3", "M2", "C", 4);
  await setStock(t, "S4", "M3", "PK", 3);
  await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
});
afterAll(async () => t.close());

describe("pick: created → fulfillable → cancellation_locked → pick_started → complete, then bin_complete", () => {
  it("walks every state with the notifications the spec names, in order", async () => {
    await n.catchUp();
    const created = await ok(
      t.call(
        "POST",
        SR,
        pickBody("P1", [pickLine("P1-L1", "A", 3), pickLine("P1-L2", "B", 2)], { simple_priority: "high" }),
      ),
    );
    expect(created).toMatchObject({
      externalServiceRequestId: "P1",
      type: "PICK",
      status: "CREATED",
      state: "CREATED",
    });
    expect(created.serviceRequests).toHaveLength(2);
    expect(created.serviceRequests[0]).toMatchObject({
      type: "PICK_LINE",
      externalServiceRequestId: "P1-L1",
    });
    expect(created.serviceRequests[0].expectations.containers[0].products[0]).toMatchObject({
      productQuantity: 3,
      productAttributes: { filter_parameters: ["product_sku = 'A'"] },
    });

    const alloc = await n.next();
    expect(kinds(alloc)).toEqual([["order_information", "fulfillable"]]);
    expect(alloc[0]?.notification_data).toMatchObject({
      status: "PROCESSING",
      externalServiceRequestId: "P1",
      type: "PICK",
    });
    expect((await stockOf(t, "S1", item.A as number))?.reserved).toBe(3);

    const state = await ok(t.call("GET", "/station/state"));
    const bin = state.bins.find((b: { requests: Array<{ externalServiceRequestId: string }> }) =>
      b.requests.some((r) => r.externalServiceRequestId === "P1"),
    );
    expect(bin).toMatchObject({ state: "pick" });

    await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["S1", "S2"] }));
    const locked = await n.next();
    expect(kinds(locked)).toEqual([["order_information", "cancellation_locked"]]);
    expect(locked[0]?.notification_data.attributes).toMatchObject({
      pps_id: "7",
      pps_bin_id: bin.ppsBinId,
      simple_priority: "high",
    });

    // cancel is refused once locked: answered 202, then order_modification failure with the transaction id
    const cancel = await ok(
      t.call("POST", `${SR}/cancel`, { externalServiceRequestId: "P1", type: "PICK" }),
      202,
    );
    const refused = await n.next();
    expect(kinds(refused)).toEqual([["order_modification", "failure"]]);
    expect(refused[0]?.notification_data.id).toBe(cancel.id);

    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "P1",
        line: "P1-L1",
        location: "S1",
        quantity: 2,
      }),
    );
    const first = await n.next();
    expect(kinds(first)).toEqual([["order_information", "pick_started"]]);
    const line1 = first[0]?.notification_data.serviceRequests[0];
    expect(line1.actuals.containers).toHaveLength(1);
    expect(line1.actuals.containers[0]).toMatchObject({
      state: "complete",
      type: "VIRTUAL",
      containerAttributes: { location: "S1" },
      products: [
        {
          productQuantity: 2,
          uidType: "ITEM_ID",
          uid: String(item.A),
          productAttributes: { pdfa_values: { product_sku: "A" }, package_count: 2 },
        },
      ],
    });
    expect(first[0]?.notification_data.attributes).toMatchObject({
      user_name: "alice",
      pps_seat_name: "front",
    });

    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "P1",
        line: "P1-L1",
        location: "S1",
        quantity: 1,
      }),
    );
    expect(kinds(await n.next())).toEqual([["order_information", "pick_started"]]);

    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "P1",
        line: "P1-L2",
        location: "S2",
        quantity: 2,
      }),
    );
    const done = await n.next();
    expect(kinds(done)).toEqual([
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    expect(done[0]?.notification_data.status).toBe("PROCESSED");
    expect(done[1]?.notification_data).toMatchObject({ ppsId: 7, ppsBinId: bin.ppsBinId });
    expect(
      done[1]?.notification_data.serviceRequests.map(
        (r: { externalServiceRequestId: string; state: string }) => [r.externalServiceRequestId, r.state],
      ),
    ).toEqual([["P1", "complete"]]);

    expect(await stockOf(t, "S1", item.A as number)).toMatchObject({ quantity: 7, reserved: 0 });
    expect(await stockOf(t, "S2", item.B as number)).toMatchObject({ quantity: 3, reserved: 0 });
    await ok(t.call("POST", `/station/bins/${bin.ppsBinId}/empty`));
    const after = await ok(t.call("GET", "/station/state"));
    expect(after.bins.find((b: { ppsBinId: string }) => b.ppsBinId === bin.ppsBinId).state).toBe("empty");
    await ok(t.call("DELETE", "/station/racks/M1"));
  });
});

describe("pick: other ends of the table", () => {
  it("not_fulfillable (FAILED) when stock does not cover every line; nothing is reserved", async () => {
    await n.catchUp();
    await ok(t.call("POST", SR, pickBody("P2", [pickLine("P2-L1", "A", 2), pickLine("P2-L2", "D", 1)])));
    const list = await n.next();
    expect(kinds(list)).toEqual([["order_information", "not_fulfillable"]]);
    expect(list[0]?.notification_data.status).toBe("FAILED");
    expect((await stockOf(t, "S1", item.A as number))?.reserved).toBe(0);
  });

  it("cancel before lock: order_modification success, then order_information cancelled; reservation released", async () => {
    await n.catchUp();
    await ok(t.call("POST", SR, pickBody("P3", [pickLine("P3-L1", "A", 4)])));
    await n.next();
    expect((await stockOf(t, "S1", item.A as number))?.reserved).toBe(4);
    const res = await ok(
      t.call("POST", `${SR}/cancel`, { externalServiceRequestId: "P3", type: "PICK" }),
      202,
    );
    expect(res).toEqual({ id: expect.any(Number), externalServiceRequestId: "P3", type: "PICK" });
    const list = await n.next();
    expect(kinds(list)).toEqual([
      ["order_modification", "success"],
      ["order_information", "cancelled"],
    ]);
    expect(list[0]?.notification_data.id).toBe(res.id);
    expect(list[1]?.notification_data.status).toBe("CANCELLED");
    expect((await stockOf(t, "S1", item.A as number))?.reserved).toBe(0);
  });

  it("modify before lock re-allocates: order_modification success, then order_information", async () => {
    await n.catchUp();
    await ok(t.call("POST", SR, pickBody("P4", [pickLine("P4-L1", "A", 1)])));
    await n.next();
    const res = await ok(
      t.call("POST", `${SR}/modify`, {
        externalServiceRequestId: "P4",
        type: "PICK",
        serviceRequests: [pickLine("P4-L1", "A", 5)],
      }),
      202,
    );
    const list = await n.next();
    expect(kinds(list)).toEqual([
      ["order_modification", "success"],
      ["order_information", "fulfillable"],
    ]);
    expect(list[0]?.notification_data.id).toBe(res.id);
    expect(
      list[1]?.notification_data.serviceRequests[0].expectations.containers[0].products[0].productQuantity,
    ).toBe(5);
    expect((await stockOf(t, "S1", item.A as number))?.reserved).toBe(5);
    await ok(t.call("POST", `${SR}/cancel`, { externalServiceRequestId: "P4", type: "PICK" }), 202);
  });

  it("abandoned (CANCELLED) when a line ends short because items are missing", async () => {
    await n.catchUp();
    await ok(t.call("POST", SR, pickBody("P5", [pickLine("P5-L1", "C", 3)])));
    await ok(t.call("POST", "/station/racks", { msu: "M2", locations: ["S3"] }));
    expect(kinds(await n.next())).toEqual([
      ["order_information", "fulfillable"],
      ["order_information", "cancellation_locked"],
    ]);
    await ok(
      t.call("POST", "/station/picks/exceptions", {
        externalServiceRequestId: "P5",
        line: "P5-L1",
        quantity: 1,
        reason: "item_missing",
      }),
    );
    const ex = await n.next();
    expect(kinds(ex)).toEqual([["order_information", "pick_started"]]);
    expect(ex[0]?.notification_data.serviceRequests[0].actuals.containers[0]).toMatchObject({
      state: "item_missing",
      products: [{ productQuantity: 1 }],
    });
    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "P5",
        line: "P5-L1",
        location: "S3",
        quantity: 2,
      }),
    );
    const end = await n.next();
    expect(kinds(end)).toEqual([
      ["order_information", "pick_started"],
      ["order_information", "abandoned"],
      ["bin_complete", undefined],
    ]);
    expect(end[1]?.notification_data.status).toBe("CANCELLED");
    // 4 on hand: 1 written off as missing, 2 picked
    expect(await stockOf(t, "S3", item.C as number)).toMatchObject({ quantity: 1, reserved: 0 });
    const binId = end[2]?.notification_data.ppsBinId;
    await ok(t.call("POST", `/station/bins/${binId}/empty`));
    await ok(t.call("DELETE", "/station/racks/M2"));
  });

  it("pick+pack: complete carries olpn, the bin waits for print-ready, then pack_information (type PACK)", async () => {
    await n.catchUp();
    const pack = {
      shipping_address: "1 Main St",
      carrier_label_url: "http://x/label",
      packing_box_id: "BOX-9",
      packing_box_type: "S",
      order_number: "O-1",
    };
    await ok(
      t.call(
        "POST",
        SR,
        pickBody("PP1", [pickLine("PP1-L1", "PK", 2, pack)], { order_options: { bintags: ["gift"] } }),
      ),
    );
    await ok(t.call("POST", "/station/racks", { msu: "M3", locations: ["S4"] }));
    await ok(
      t.call("POST", "/station/picks", {
        externalServiceRequestId: "PP1",
        line: "PP1-L1",
        location: "S4",
        quantity: 2,
      }),
    );
    const list = await n.next();
    expect(kinds(list)).toEqual([
      ["order_information", "fulfillable"],
      ["order_information", "cancellation_locked"],
      ["order_information", "pick_started"],
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    expect(list[3]?.notification_data.attributes).toMatchObject({
      olpn: "BOX-9",
      order_options: { bintags: ["gift"] },
    });
    expect(list[3]?.notification_data.serviceRequests[0].attributes).toMatchObject(pack);
    const binId = list[4]?.notification_data.ppsBinId;
    const early = await t.call("POST", `/station/bins/${binId}/empty`);
    expect(early.status).toBe(409);
    await ok(t.call("POST", `${CORE}/orders/print_ready/PP1`));
    const packed = await n.next();
    expect(kinds(packed)).toEqual([["pack_information", undefined]]);
    expect(packed[0]?.notification_data).toMatchObject({
      externalServiceRequestId: "PP1",
      packing_box_id: "BOX-9",
      output_location_id: binId,
      serviceRequest: { type: "PACK", state: "complete", status: "PROCESSED" },
      products: [{ productQuantity: 2 }],
    });
    const again = await t.call("POST", `${CORE}/orders/print_ready/PP1`);
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ code: "invalid_order_status" });
    await ok(t.call("POST", `/station/bins/${binId}/empty`));
    await ok(t.call("DELETE", "/station/racks/M3"));
  });

  it("orders work by simple_priority, then pick_before_time; pick_after_time holds work back except critical", async () => {
    await setStock(t, "S9", "M9", "A", 100);
    // fill every bin so the queue is visible in order
    const future = new Date(t.clock.now + 3_600_000).toISOString();
    const bodies = [
      pickBody("W-low", [pickLine("W-low-1", "A", 1)], { simple_priority: "low" }),
      pickBody("W-normal-late", [pickLine("W-nl-1", "A", 1)], { pick_before_time: "2026-11-22T18:00:00Z" }),
      pickBody("W-normal-early", [pickLine("W-ne-1", "A", 1)], {
        pick_before_time: "2026-11-22T08:00:00+01:00",
      }),
      pickBody("W-critical-held", [pickLine("W-ch-1", "A", 1)], {
        simple_priority: "critical",
        pick_after_time: future,
      }),
      pickBody("W-held", [pickLine("W-h-1", "A", 1)], { simple_priority: "high", pick_after_time: future }),
    ];
    for (const b of bodies) await ok(t.call("POST", SR, b));
    const state = await ok(t.call("GET", "/station/state"));
    const queue = state.pickQueue
      .map((q: { externalServiceRequestId: string }) => q.externalServiceRequestId)
      .filter((id: string) => id.startsWith("W-"));
    expect(queue).toEqual(["W-critical-held", "W-normal-early", "W-normal-late", "W-low"]);
    expect(
      state.heldBack.map((h: { externalServiceRequestId: string }) => h.externalServiceRequestId),
    ).toEqual(["W-held"]);
    const binned = state.bins.flatMap((b: { requests: Array<{ externalServiceRequestId: string }> }) =>
      b.requests.map((r) => r.externalServiceRequestId),
    );
    expect(binned).not.toContain("W-held");
    t.clock.now += 3_600_001;
    t.agent.services.operations.releaseHeldWork();
    const later = await ok(t.call("GET", "/station/state"));
    expect(later.heldBack).toEqual([]);
    for (const b of bodies)
      await ok(
        t.call("POST", `${SR}/cancel`, {
          externalServiceRequestId: b.externalServiceRequestId,
          type: "PICK",
        }),
        202,
      );
  });

  it("GET returns the current state; a retried create returns the stored request; another body is a 409", async () => {
    const body = pickBody("P9", [pickLine("P9-L1", "B", 1)]);
    const first = await ok(t.call("POST", SR, body));
    const retry = await ok(t.call("POST", SR, body));
    expect(retry.id).toBe(first.id);
    expect(retry.state).toBe("fulfillable");
    const other = await t.call("POST", SR, pickBody("P9", [pickLine("P9-L1", "B", 2)]));
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({
      code: "duplicate_request",
      errors: [{ path: "externalServiceRequestId" }],
    });
    const got = await ok(t.call("GET", `${SR}/P9?type=PICK`));
    expect(got).toMatchObject({ id: first.id, state: "fulfillable", status: "PROCESSING" });
    expect((await ok(t.call("GET", `${SR}/P9`))).id).toBe(first.id);
  });
});
