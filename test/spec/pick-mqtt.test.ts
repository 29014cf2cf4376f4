import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Json, kinds, ok, pickBody, pickLine, putBody, SR } from "../support/station.js";
import { ask } from "../support/sync/agent.js";
import { pickStation } from "./pick-support.js";
import type { Central } from "./support/central.js";

/**
 * Conformance: "Endpoints" → "Service requests" pick rows and "Process flow trigger" (print ready) over
 * MQTT (request/<name> → response/<name>, docs/mqtt.md), each with the outcome and the notifications
 * of its HTTP twin read off the broker; the Create row's `CREATED` (decision: docs/decisions.md#service-requests-pick-pickpack-put) and the pick line state `undefined` (decision: docs/decisions.md#service-requests-pick-pickpack-put).
 */
let central: Central;
let c: Awaited<ReturnType<typeof pickStation>>["c"];
let seq = 0;

beforeAll(async () => {
  ({ central, c } = await pickStation(["A", "PK", "C"]));
  await c.stock("SA", "MA", "A", 50);
  await c.stock("SP", "MP", "PK", 50);
});
afterAll(async () => central?.close());

/** One MQTT request with a fresh transaction id, its answer parsed. */
async function mqtt(name: string, payload: Json): Promise<Json> {
  const transaction = `p1-${++seq}`;
  const answer = JSON.parse(await ask(central.broker, name, { transaction, ...payload })) as Json;
  expect(answer.transaction).toBe(transaction);
  return answer;
}

/** The error of a refused MQTT request: [HTTP-equivalent status, code]. */
const refusal = (answer: Json) => [answer.status, answer.error?.status, answer.error?.code];

describe("Service request endpoint rows (pick) over MQTT", () => {
  it("Endpoints: Create | POST service-request, type PICK | 200: the created object with ids, `status` and `state` `CREATED`, timestamps (over MQTT create_service_request)", async () => {
    await central.mark();
    const answer = await mqtt("create_service_request", pickBody("Q1", [pickLine("Q1-1", "A", 1)]));
    expect(answer).toMatchObject({ status: "ok", error: null });
    const created = answer.data as Json;
    expect(created).toMatchObject({
      externalServiceRequestId: "Q1",
      type: "PICK",
      status: "CREATED",
      state: "CREATED",
    });
    expect(Number.isInteger(created.id)).toBe(true);
    expect(Number.isInteger(created.serviceRequests[0].id)).toBe(true);
    for (const k of ["receivedOn", "createdOn", "updatedOn"])
      expect(Number.isNaN(Date.parse(created[k]))).toBe(false);
    expect(kinds(await central.since())).toEqual([["order_information", "fulfillable"]]);
    expect((await c.get("Q1")).state).toBe("fulfillable");
  });

  it("Endpoints: Create | 400 bad data (pick) over MQTT: the same refusal as HTTP, naming the field; nothing created", async () => {
    await central.mark();
    const answer = await mqtt("create_service_request", pickBody("Q2", []));
    expect(refusal(answer)).toEqual(["error", 400, "validation_failed"]);
    expect(answer.error.errors[0].path).toBe("serviceRequests");
    expect((await central.t.call("GET", `${SR}/Q2?type=PICK`)).status).toBe(404);
    expect(await central.since()).toEqual([]);
  });

  it("Endpoints: Cancel pick | POST service-request/cancel | asynchronous; body {id, externalServiceRequestId, type} where id is a transaction id carried by the result notification (over MQTT cancel_service_request): order_modification success, then order_information cancelled", async () => {
    await c.create(pickBody("Q3", [pickLine("Q3-1", "A", 1)]));
    await central.mark();
    const answer = await mqtt("cancel_service_request", { externalServiceRequestId: "Q3", type: "PICK" });
    expect(answer).toMatchObject({ status: "ok", error: null });
    expect(Object.keys(answer.data).sort()).toEqual(["externalServiceRequestId", "id", "type"]);
    expect(answer.data).toMatchObject({ externalServiceRequestId: "Q3", type: "PICK" });
    const notes = await central.since();
    expect(kinds(notes)).toEqual([
      ["order_modification", "success"],
      ["order_information", "cancelled"],
    ]);
    expect(notes[0]?.notification_data).toMatchObject({ id: answer.data.id, externalServiceRequestId: "Q3" });
    expect((await c.get("Q3")).status).toBe("CANCELLED");
    const bad = await mqtt("cancel_service_request", { type: "PICK" });
    expect(refusal(bad)).toEqual(["error", 400, "validation_failed"]);
  });

  it("Endpoints: Modify pick | POST service-request/modify | asynchronous; 202 body {id, externalServiceRequestId, type}; 400 bad data (over MQTT modify_service_request)", async () => {
    await c.create(pickBody("Q4", [pickLine("Q4-1", "A", 1)], { simple_priority: "low" }));
    await central.mark();
    const answer = await mqtt("modify_service_request", {
      externalServiceRequestId: "Q4",
      type: "PICK",
      attributes: { simple_priority: "high" },
    });
    expect(answer).toMatchObject({ status: "ok", error: null });
    expect(Object.keys(answer.data).sort()).toEqual(["externalServiceRequestId", "id", "type"]);
    const notes = await central.since();
    expect(kinds(notes)).toEqual([
      ["order_modification", "success"],
      ["order_information", "fulfillable"],
    ]);
    expect(notes[0]?.notification_data).toMatchObject({ id: answer.data.id });
    expect((await c.get("Q4")).attributes.simple_priority).toBe("high");
    const bad = await mqtt("modify_service_request", {
      externalServiceRequestId: "Q4",
      type: "PICK",
      attributes: { simple_priority: "urgent" },
    });
    expect(refusal(bad)).toEqual(["error", 400, "validation_failed"]);
    expect((await c.get("Q4")).attributes.simple_priority).toBe("high");
    expect(await central.since()).toEqual([]);
    expect((await c.cancel("Q4")).status).toBe(202);
  });

  it("Endpoints: Create (decision: the same create again while the request is still created answers `CREATED`; reads and notifications say the lowercase name)", async () => {
    const body = putBody("Q5", [["C", 1]]);
    expect((await ok(central.t.call("POST", SR, body))).state).toBe("CREATED");
    expect((await ok(central.t.call("POST", SR, body))).state).toBe("CREATED");
    const again = await mqtt("create_service_request", body);
    expect(again.data).toMatchObject({ status: "CREATED", state: "CREATED" });
    expect((await ok(central.t.call("GET", `${SR}/Q5?type=PUT`))).state).toBe("created");
  });

  it("Pick request: pick lines may also carry `undefined` (decision: a line's state until its request's allocation settles: in the create answer only, never in a notification)", async () => {
    await central.mark();
    const created = await c.create(pickBody("Q6", [pickLine("Q6-1", "A", 1), pickLine("Q6-2", "A", 1)]));
    expect(created.serviceRequests.map((l: Json) => [l.state, l.status])).toEqual([
      ["undefined", "CREATED"],
      ["undefined", "CREATED"],
    ]);
    const notes = await central.since();
    expect(notes[0]?.notification_data.serviceRequests.map((l: Json) => l.state)).toEqual([
      "fulfillable",
      "fulfillable",
    ]);
    expect((await c.get("Q6")).serviceRequests.map((l: Json) => l.state)).toEqual([
      "fulfillable",
      "fulfillable",
    ]);
    expect((await c.cancel("Q6")).status).toBe(202);
    const cancelled = await central.since();
    expect(JSON.stringify(cancelled)).not.toContain('"undefined"');
  });
});

describe("Process flow trigger: print ready", () => {
  const pack = { packing_box_id: "BOX-9", order_number: "O-9", shipping_address: "1 Main St" };

  /** A pick+pack of 1 × PK picked to the end: complete, its bin waiting for its label. Returns the bin. */
  async function waitingForLabel(id: string): Promise<string> {
    await c.create(pickBody(id, [pickLine(`${id}-1`, "PK", 1, pack)]));
    await c.present("MP", ["SP"]);
    await central.mark();
    expect((await c.pick(id, `${id}-1`, "SP", 1)).status).toBe(200);
    const notes = await central.since();
    expect(kinds(notes)).toEqual([
      ["order_information", "pick_started"],
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    await c.gone("MP");
    return notes[2]?.notification_data.ppsBinId as string;
  }

  it("Process flow trigger: POST orders/print_ready/{externalServiceRequestId} | 200 successful (over HTTP): the order's flow resumes, its bin may be emptied", async () => {
    const bin = await waitingForLabel("PR1");
    expect((await c.empty(bin)).status).toBe(409);
    const res = await c.printReady("PR1");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ externalServiceRequestId: "PR1" });
    expect((await c.printReady("PR1")).status).toBe(400);
    expect((await c.empty(bin)).status).toBe(200);
  });

  it("Process flow trigger: print_ready over MQTT | 404 service request id not found; 400 invalid order status; 200 successful", async () => {
    const unknown = await mqtt("print_ready", { externalServiceRequestId: "NOPE" });
    expect(refusal(unknown)).toEqual(["error", 404, "not_found"]);
    await c.create(pickBody("PR2", [pickLine("PR2-1", "A", 1)]));
    const plain = await mqtt("print_ready", { externalServiceRequestId: "PR2" });
    expect(refusal(plain)).toEqual(["error", 400, "invalid_order_status"]);
    expect((await c.cancel("PR2")).status).toBe(202);
    const bin = await waitingForLabel("PR3");
    await central.mark();
    const done = await mqtt("print_ready", { externalServiceRequestId: "PR3" });
    expect(done).toMatchObject({ status: "ok", error: null, data: { externalServiceRequestId: "PR3" } });
    expect(kinds(await central.since())).toEqual([["pack_information", undefined]]);
    expect((await c.empty(bin)).status).toBe(200);
  });
});
