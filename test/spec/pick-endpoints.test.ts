import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAgent } from "../support/agent.js";
import { type Json, kinds, pickBody, pickLine } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { lineChange, pickStation } from "./pick-support.js";
import type { Central } from "./support/central.js";
import { refusedOverMqtt } from "./support/masterdata.js";

/**
 * Conformance: the pick rows of "Endpoints" → "Service requests" and "Process flow trigger", over
 * HTTP, with modify as a partial update (docs/decisions.md) and not_fulfillable left by cancel or modify.
 */
let t: TestAgent;
let central: Central;
let c: Awaited<ReturnType<typeof pickStation>>["c"];
let item: Record<string, number>;

beforeAll(async () => {
  ({ t, central, c, item } = await pickStation(["A", "B", "C", "D", "E", "F", "G"]));
});
afterAll(async () => central?.close());

describe("Service request endpoint rows (pick)", () => {
  it("Create | POST service-request, type PICK | 200 the created object; 400 bad data (pick)", async () => {
    const bad = await t.call("POST", "/api-gateway/sr-service/platform-srms/service-request", {
      externalServiceRequestId: "X1",
      type: "PICK",
      serviceRequests: [],
    });
    expect(bad.status).toBe(400);
  });

  it("Cancel pick | POST service-request/cancel | asynchronous; 202 {id, externalServiceRequestId, type}; 400 bad data", async () => {
    await c.create(pickBody("E1", [pickLine("E1-1", "A", 1)]));
    const res = await c.cancel("E1");
    expect(res.status).toBe(202);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["externalServiceRequestId", "id", "type"]);
    expect(body).toMatchObject({ externalServiceRequestId: "E1", type: "PICK" });
    const bad = await t.call("POST", "/api-gateway/sr-service/platform-srms/service-request/cancel", {
      type: "PICK",
    });
    expect(bad.status).toBe(400);
  });

  it("Modify pick | POST service-request/modify | optional expectations, serviceRequests, attributes; 202 {id, externalServiceRequestId, type}; 400 bad data", async () => {
    await c.create(pickBody("E2", [pickLine("E2-1", "A", 1)]));
    for (const change of [{}, { expectations: null }]) {
      const res = await c.modify("E2", change);
      expect(res.status, JSON.stringify(change)).toBe(202);
      expect(Object.keys((await res.json()) as object).sort()).toEqual([
        "externalServiceRequestId",
        "id",
        "type",
      ]);
    }
    expect((await c.modify("E2", { attributes: { simple_priority: "urgent" } })).status).toBe(400);
    expect((await c.cancel("E2")).status).toBe(202);
  });

  it("Modify pick | optional expectations: a modify carrying only `expectations` (which a pick keeps in its lines) → 400 naming it, no order_modification, nothing changed; over HTTP and MQTT (decision: docs/decisions.md#service-requests-pick-pickpack-put)", async () => {
    await c.create(pickBody("E4", [pickLine("E4-1", "A", 1)]));
    await central.mark();
    const only = { expectations: { containers: [{ products: [{ productQuantity: 5 }] }] } };
    const res = await c.modify("E4", only);
    const body = (await res.json()) as Json;
    expect([res.status, body.code, body.errors[0].path]).toEqual([400, "validation_failed", "expectations"]);
    const mqtt = { transaction: "e4", externalServiceRequestId: "E4", type: "PICK", ...only };
    refusedOverMqtt(
      await ask(central.broker, "modify_service_request", mqtt),
      400,
      "validation_failed",
      "expectations",
    );
    expect(await central.since()).toEqual([]);
    expect(
      (await c.get("E4")).serviceRequests[0].expectations.containers[0].products[0].productQuantity,
    ).toBe(1);
    expect((await c.cancel("E4")).status).toBe(202);
  });

  it("Cancel pick | `externalServiceRequestId`, `type`; full versus partial cancellation not shown: a cancel naming lines (serviceRequests) → 400 naming the member, nothing cancelled; over HTTP and MQTT (decision: docs/decisions.md#service-requests-pick-pickpack-put)", async () => {
    await c.create(pickBody("E5", [pickLine("E5-1", "A", 1), pickLine("E5-2", "B", 1)]));
    await central.mark();
    const partial = {
      externalServiceRequestId: "E5",
      type: "PICK",
      serviceRequests: [{ externalServiceRequestId: "E5-1" }],
    };
    const res = await t.call("POST", "/api-gateway/sr-service/platform-srms/service-request/cancel", partial);
    const body = (await res.json()) as Json;
    expect([res.status, body.code, body.message]).toEqual([
      400,
      "validation_failed",
      expect.stringContaining("serviceRequests"),
    ]);
    refusedOverMqtt(
      await ask(central.broker, "cancel_service_request", { transaction: "e5", ...partial }),
      400,
      "validation_failed",
      "(body)",
    );
    expect(await central.since()).toEqual([]);
    expect((await c.get("E5")).state).not.toBe("cancelled");
    expect((await c.cancel("E5")).status).toBe(202);
  });

  it("Print ready | POST orders/print_ready/{id} | 404 service request id not found; 400 invalid order status", async () => {
    expect((await c.printReady("NOPE")).status).toBe(404);
    await c.create(pickBody("E3", [pickLine("E3-1", "A", 1)]));
    expect((await c.printReady("E3")).status).toBe(400);
    expect((await c.cancel("E3")).status).toBe(202);
  });
});

describe("issue 11 item 1: modify merges, it does not replace", () => {
  const lines = () => [pickLine("M1-1", "F", 1), pickLine("M1-2", "G", 1)];
  beforeAll(async () => {
    await c.stock("SF", "MF", "F", 10);
    await c.stock("SG", "MG", "G", 10);
    await c.create(
      pickBody("M1", lines(), {
        simple_priority: "high",
        pick_before_time: "2026-11-30T10:00:00Z",
        order_options: { priority: 3, bintags: ["cold"] },
      }),
    );
  });

  it("Modify pick: attribute members given replace those members; the others are kept", async () => {
    await central.mark();
    expect((await c.modify("M1", { attributes: { pick_before_time: "2026-12-01T10:00:00Z" } })).status).toBe(
      202,
    );
    expect(kinds(await central.since())).toEqual([
      ["order_modification", "success"],
      ["order_information", "fulfillable"],
    ]);
    expect((await c.get("M1")).attributes).toMatchObject({
      simple_priority: "high",
      pick_before_time: "2026-12-01T10:00:00Z",
      order_options: { priority: 3, bintags: ["cold"] },
    });
  });

  it("Modify pick: an explicit null removes an attribute member", async () => {
    expect((await c.modify("M1", { attributes: { simple_priority: null } })).status).toBe(202);
    const got = await c.get("M1");
    expect(got.attributes).not.toHaveProperty("simple_priority");
    expect(got.attributes.order_options).toEqual({ priority: 3, bintags: ["cold"] });
  });

  it("Modify pick: a line given is matched by its externalServiceRequestId and changed; lines not named are kept", async () => {
    expect((await c.modify("M1", { serviceRequests: [lineChange("M1-2", { quantity: 3 })] })).status).toBe(
      202,
    );
    const got = await c.get("M1");
    expect(got.state).toBe("fulfillable");
    const qty = got.serviceRequests.map((l: { externalServiceRequestId: string; expectations: never }) => [
      l.externalServiceRequestId,
      (l.expectations as { containers: Array<{ products: Array<{ productQuantity: number }> }> })
        .containers[0]?.products[0]?.productQuantity,
    ]);
    expect(qty).toEqual([
      ["M1-1", 1],
      ["M1-2", 3],
    ]);
    expect(c.onHand("SG", item.G as number)).toMatchObject({ reserved: 3 });
  });

  it("Modify pick: a new line is added; productQuantity 0 removes a line", async () => {
    const add = pickLine("M1-3", "F", 2);
    expect(
      (await c.modify("M1", { serviceRequests: [add, lineChange("M1-1", { quantity: 0 })] })).status,
    ).toBe(202);
    const got = await c.get("M1");
    expect(
      got.serviceRequests.map((l: { externalServiceRequestId: string }) => l.externalServiceRequestId),
    ).toEqual(["M1-2", "M1-3"]);
    expect(c.onHand("SF", item.F as number)).toMatchObject({ reserved: 2 });
  });

  it("Modify pick: removing every line, or adding a line without its filters, is 400 bad data", async () => {
    const none = await c.modify("M1", {
      serviceRequests: [lineChange("M1-2", { quantity: 0 }), lineChange("M1-3", { quantity: 0 })],
    });
    expect(none.status).toBe(400);
    const half = await c.modify("M1", { serviceRequests: [lineChange("M1-9", { quantity: 1 })] });
    expect(half.status).toBe(400);
    expect((await c.get("M1")).serviceRequests).toHaveLength(2);
    expect((await c.cancel("M1")).status).toBe(202);
  });
});

describe("issue 11 item 3: not_fulfillable is not a dead end", () => {
  it("Pick request: not_fulfillable stays when stock arrives; a modify allocates again against the stock of now", async () => {
    await c.create(pickBody("NF1", [pickLine("NF1-1", "B", 5)]));
    expect((await c.get("NF1")).state).toBe("not_fulfillable");
    await c.stock("SB2", "MB2", "B", 5);
    expect((await c.get("NF1")).state).toBe("not_fulfillable");
    await central.mark();
    expect((await c.modify("NF1", {})).status).toBe(202);
    expect(kinds(await central.since())).toEqual([
      ["order_modification", "success"],
      ["order_information", "fulfillable"],
    ]);
    expect((await c.cancel("NF1")).status).toBe(202);
  });
});
