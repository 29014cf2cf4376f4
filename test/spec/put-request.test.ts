/**
 * Conformance: "States and transitions" → "Put request", "Events" rules 3, 4, 5 and 8, and the put rows
 * of "Endpoints" → "Service requests". Each test names the row it checks; the requests go over HTTP (a few
 * over MQTT) and every notification is read off the embedded broker as the central system receives it.
 * docs/decisions.md records the choices these tests hold the agent to.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE, type Json, kinds, ok, putBody, SR, seedItem } from "../support/station.js";
import { ask, PPS } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";

let c: Central;

beforeAll(async () => {
  c = await startCentral();
  await seedItem(c.t, "C");
  await ok(c.t.call("PUT", "/station/mode", { mode: "put" }));
  await ok(c.t.call("POST", "/station/seats/back/login", { user: "bob" }));
  await ok(c.t.call("POST", "/station/racks", { msu: "M5", locations: ["S50"] }));
});
afterAll(async () => c?.close());

const call = (method: string, path: string, body?: unknown) => c.t.call(method, path, body);
const stateOf = async (id: string) => (await ok(call("GET", `${SR}/${id}?type=PUT`))).state as string;
const stageBody = (id: string, bin: string) => ({ serviceRequestId: id, ppsId: PPS, ppsBinId: bin });
const binState = async (bin: string) =>
  ((await ok(call("GET", "/station/state"))).bins as Json[]).find((b) => b.ppsBinId === bin)?.state;

/** A put of 3 × C created and staged into `bin`, its notifications consumed. */
async function stagedPut(id: string, bin: string): Promise<void> {
  await ok(call("POST", SR, putBody(id, [["C", 3]])));
  await c.mark();
  await ok(call("POST", `${CORE}/stage_put_expectation`, stageBody(id, bin)));
  expect(kinds(await c.sinceAtLeast(1))).toEqual([["put_information", "staged"]]);
  expect(await binState(bin)).toBe("put");
}

const putOne = (id: string) =>
  call("POST", "/station/puts", {
    externalServiceRequestId: id,
    product_sku: "C",
    location: "S50",
    quantity: 1,
  });

describe("put request rows", () => {
  it("Put request: (none) | create request | valid body → created (status CREATED); no notification", async () => {
    await c.mark();
    const created = await ok(call("POST", SR, putBody("R-CREATE", [["C", 2]])));
    expect(created).toMatchObject({ type: "PUT", status: "CREATED", state: "CREATED" });
    expect(await c.since()).toEqual([]);
  });

  it("Put request: created | stage API call → stage_requested; stage_requested | stage successful → staged (staging success notification, state staged)", async () => {
    await ok(call("POST", SR, putBody("R-STAGE", [["C", 2]])));
    await c.mark();
    const res = await call("POST", `${CORE}/stage_put_expectation`, stageBody("R-STAGE", "2"));
    expect([res.status, await res.text()]).toEqual([200, ""]);
    const [staged, ...more] = await c.sinceAtLeast(1);
    expect(more).toEqual([]);
    expect(staged?.notification_type).toBe("put_information");
    expect(staged?.notification_data).toMatchObject({
      externalServiceRequestId: "R-STAGE",
      state: "staged",
      status: "PROCESSING",
      attributes: { tote_id: "TOTE-1", pps_id: PPS, pps_bin_id: "2", user_name: "bob" },
    });
    expect(await stateOf("R-STAGE")).toBe("staged");
  });

  it("Put request: rule 5 | staging failure → stage_failure with attributes.alert_data [{code, description}] (bin not empty); back to created", async () => {
    await ok(call("POST", SR, putBody("R-FAIL", [["C", 1]])));
    await c.mark();
    await ok(call("POST", `${CORE}/stage_put_expectation`, stageBody("R-FAIL", "2")));
    const [failed] = await c.sinceAtLeast(1);
    expect(failed?.notification_data.state).toBe("stage_failure");
    expect(failed?.notification_data.attributes.alert_data).toEqual([
      { code: "pps_bin_not_empty", description: expect.any(String) },
    ]);
    expect(await stateOf("R-FAIL")).toBe("created");
  });

  it("Put request: staged | put transactions | put not finished → staged, no notification; put finished → complete (status PROCESSED), put complete notification with every transaction (rule 3)", async () => {
    await c.mark();
    expect((await ok(putOne("R-STAGE"))).state).toBe("staged");
    expect(await c.since()).toEqual([]);
    expect((await ok(putOne("R-STAGE"))).state).toBe("complete");
    const [done, ...more] = await c.since();
    expect(more).toEqual([]);
    expect(done?.notification_data).toMatchObject({ state: "complete", status: "PROCESSED" });
    expect(done?.notification_data.actuals.containers).toEqual([
      expect.objectContaining({ state: "complete", containerAttributes: { location: "S50" } }),
      expect.objectContaining({ state: "complete", containerAttributes: { location: "S50" } }),
    ]);
  });

  it("Put request: complete | tote or roll cage released → released; no notification (rule 8, not shown)", async () => {
    await c.mark();
    const released = await ok(call("POST", "/station/puts/R-STAGE/release"));
    expect(released.state).toBe("released");
    expect(await c.since()).toEqual([]);
    expect(await binState("2")).toBe("empty");
  });

  it("Put request: created | cancel from API → cancelled; synchronous 200 {id, externalServiceRequestId, type}", async () => {
    await c.mark();
    const res = await ok(call("POST", `${SR}/cancel`, { externalServiceRequestId: "R-CREATE", type: "PUT" }));
    expect(res).toEqual({ id: expect.any(Number), externalServiceRequestId: "R-CREATE", type: "PUT" });
    expect(await stateOf("R-CREATE")).toBe("cancelled");
    expect(await c.since()).toEqual([]);
  });

  it("Put request: modify and cancel only in state created → a cancelled put refuses both with 409 invalid_state", async () => {
    const cancel = await call("POST", `${SR}/cancel`, { externalServiceRequestId: "R-CREATE", type: "PUT" });
    expect([cancel.status, ((await cancel.json()) as Json).code]).toEqual([409, "invalid_state"]);
    const modify = await call("POST", `${SR}/modify`, {
      externalServiceRequestId: "R-CREATE",
      type: "PUT",
      attributes: { tote_id: "T-9" },
    });
    expect([modify.status, ((await modify.json()) as Json).code]).toEqual([409, "invalid_state"]);
  });
});

describe("put staging withdrawn before the first put transaction → stage_cancelled (rule 5)", () => {
  it("Put request: staged | bin emptied by the operator before any put → put_information stage_cancelled; back to created, bin empty", async () => {
    await stagedPut("W-BIN", "3");
    await ok(call("POST", "/station/bins/3/empty"));
    const [cancelled, ...more] = await c.since();
    expect(more).toEqual([]);
    expect(cancelled?.notification_type).toBe("put_information");
    expect(cancelled?.notification_data).toMatchObject({
      externalServiceRequestId: "W-BIN",
      state: "stage_cancelled",
      attributes: { pps_bin_id: "3" },
    });
    expect(await stateOf("W-BIN")).toBe("created");
    expect(await binState("3")).toBe("empty");
  });

  it("Put request: staged | tote released before any put → stage_cancelled; back to created, and it can be staged again", async () => {
    await stagedPut("W-TOTE", "4");
    const back = await ok(call("POST", "/station/puts/W-TOTE/release"));
    expect(back).toMatchObject({ state: "created", status: "CREATED" });
    expect(kinds(await c.since())).toEqual([["put_information", "stage_cancelled"]]);
    expect(await binState("4")).toBe("empty");
    await ok(call("POST", `${CORE}/stage_put_expectation`, stageBody("W-TOTE", "4")));
    expect(kinds(await c.sinceAtLeast(1))).toEqual([["put_information", "staged"]]);
  });

  it("Put request: Modify and cancel of a put request are allowed only in state `created`: a staged put's cancel → 409 invalid_state naming the state, over HTTP and MQTT; nothing notified, its bin keeps the tote (no second put staged there); once the bin is emptied the cancel passes", async () => {
    await c.mark();
    const res = await call("POST", `${SR}/cancel`, { externalServiceRequestId: "W-TOTE", type: "PUT" });
    const body = (await res.json()) as Json;
    expect([res.status, body.code, body.details]).toEqual([409, "invalid_state", { state: "staged" }]);
    expect(body.message).toContain("staged");
    const overMqtt = JSON.parse(
      await ask(c.broker, "cancel_service_request", {
        transaction: "x-0",
        externalServiceRequestId: "W-TOTE",
        type: "PUT",
      }),
    ) as Json;
    expect(overMqtt).toMatchObject({
      status: "error",
      error: { code: "invalid_state", details: { state: "staged" } },
    });
    expect(await c.since()).toEqual([]);
    expect([await stateOf("W-TOTE"), await binState("4")]).toEqual(["staged", "put"]);
    // the bin is not free: a second put staged into it fails
    await ok(call("POST", SR, putBody("W-TOTE-2", [["C", 1]])));
    await ok(call("POST", `${CORE}/stage_put_expectation`, stageBody("W-TOTE-2", "4")));
    const [failed] = await c.sinceAtLeast(1);
    expect(failed?.notification_data.state).toBe("stage_failure");
    expect(failed?.notification_data.attributes.alert_data[0].code).toBe("pps_bin_not_empty");
    await c.mark();
    await ok(call("POST", "/station/bins/4/empty"));
    expect(kinds(await c.since())).toEqual([["put_information", "stage_cancelled"]]);
    await ok(call("POST", `${SR}/cancel`, { externalServiceRequestId: "W-TOTE", type: "PUT" }));
    expect([await stateOf("W-TOTE"), await binState("4")]).toEqual(["cancelled", "empty"]);
  });

  it("Put request: cancel only in state `created`: stage_requested (staging not yet decided) → 409 invalid_state naming it, nothing notified", async () => {
    await ok(call("POST", SR, putBody("W-REQ", [["C", 1]])));
    await c.mark();
    const { operations, requests } = c.t.agent.services;
    // one turn of the event loop: the staging evaluation (scheduled after the stage call) has not run yet
    operations.stagePut(stageBody("W-REQ", "5"));
    expect(requests.get("W-REQ", "PUT").state).toBe("stage_requested");
    expect(() => requests.cancel({ externalServiceRequestId: "W-REQ", type: "PUT" })).toThrow(
      /stage_requested/,
    );
    expect(requests.get("W-REQ", "PUT").state).toBe("stage_requested");
    expect(await c.sinceAtLeast(1)).toMatchObject([{ notification_data: { state: "staged" } }]);
    await c.mark();
    await ok(call("POST", "/station/bins/5/empty"));
    expect(kinds(await c.since())).toEqual([["put_information", "stage_cancelled"]]);
  });

  it("Put request: staged | station leaves put mode while totes stand in bins → 409 invalid_state naming the bins, nothing withdrawn; once the bins are emptied (stage_cancelled) the mode changes", async () => {
    await stagedPut("W-MODE-1", "5");
    await stagedPut("W-MODE-2", "6");
    await c.mark();
    const res = await call("PUT", "/station/mode", { mode: "pick" });
    const body = (await res.json()) as Json;
    expect([res.status, body.code, body.details]).toEqual([
      409,
      "invalid_state",
      { bins: ["5", "6"], puts: ["W-MODE-1", "W-MODE-2"] },
    ]);
    expect(await c.since()).toEqual([]);
    expect([await binState("5"), await binState("6")]).toEqual(["put", "put"]);
    expect([await stateOf("W-MODE-1"), await stateOf("W-MODE-2")]).toEqual(["staged", "staged"]);
    await ok(call("POST", "/station/bins/5/empty"));
    await ok(call("POST", "/station/bins/6/empty"));
    const notes = await c.since();
    expect(
      notes.map((n) => [n.notification_data.externalServiceRequestId, n.notification_data.state]),
    ).toEqual([
      ["W-MODE-1", "stage_cancelled"],
      ["W-MODE-2", "stage_cancelled"],
    ]);
    await ok(call("PUT", "/station/mode", { mode: "pick" }));
    expect([await stateOf("W-MODE-1"), await stateOf("W-MODE-2")]).toEqual(["created", "created"]);
    await ok(call("PUT", "/station/mode", { mode: "put" }));
  });

  it("Put request: staged after a put transaction → the staging is not withdrawn: bin empty, release, cancel and leaving put mode answer 409 invalid_state, nothing notified", async () => {
    await stagedPut("W-BUSY", "7");
    await ok(putOne("W-BUSY"));
    await c.mark();
    for (const [method, path, body] of [
      ["POST", "/station/bins/7/empty", undefined],
      ["POST", "/station/puts/W-BUSY/release", undefined],
      ["POST", `${SR}/cancel`, { externalServiceRequestId: "W-BUSY", type: "PUT" }],
      ["PUT", "/station/mode", { mode: "audit" }],
    ] as const) {
      const res = await call(method, path, body);
      expect([path, res.status, ((await res.json()) as Json).code]).toEqual([path, 409, "invalid_state"]);
    }
    expect(await c.since()).toEqual([]);
    expect(await stateOf("W-BUSY")).toBe("staged");
  });
});

describe("service request endpoints: statuses the spec leaves not shown (docs/decisions.md#status-codes-the-spec-does-not-show)", () => {
  const code = async (res: Promise<Response>) => {
    const r = await res;
    return [r.status, ((await r.json()) as Json).code];
  };

  it("Service requests: cancel or modify of an unknown externalServiceRequestId → 404 not_found, PICK and PUT, nothing notified", async () => {
    await c.mark();
    for (const type of ["PICK", "PUT"]) {
      const id = { externalServiceRequestId: "NO-SUCH-REQUEST", type };
      expect(await code(call("POST", `${SR}/cancel`, id))).toEqual([404, "not_found"]);
      expect(await code(call("POST", `${SR}/modify`, { ...id, attributes: {} }))).toEqual([404, "not_found"]);
    }
    expect(await c.since()).toEqual([]);
  });

  it("Stage put: another station's ppsId or an unknown bin → 400; an unknown serviceRequestId → 404; a put not in created → 409", async () => {
    await ok(call("POST", SR, putBody("S-ERR", [["C", 1]])));
    const stage = (body: Json) => call("POST", `${CORE}/stage_put_expectation`, body);
    expect(await code(stage({ ...stageBody("S-ERR", "2"), ppsId: "99" }))).toEqual([
      400,
      "validation_failed",
    ]);
    expect(await code(stage(stageBody("S-ERR", "99")))).toEqual([400, "validation_failed"]);
    expect(await code(stage(stageBody("NO-SUCH-PUT", "2")))).toEqual([404, "not_found"]);
    await ok(call("POST", `${SR}/cancel`, { externalServiceRequestId: "S-ERR", type: "PUT" }));
    expect(await code(stage(stageBody("S-ERR", "2")))).toEqual([409, "invalid_state"]);
  });

  it("Put request: create with a product no item matches → 400 naming the product; the same create again → 200 the stored request; another body under that id → 409 duplicate_request", async () => {
    const res = await call("POST", SR, putBody("P-BAD", [["NO-SUCH-SKU", 1]]));
    const body = (await res.json()) as Json;
    expect([res.status, body.errors[0].path]).toEqual([
      400,
      "expectations.containers.0.products.0.productAttributes.pdfa_values",
    ]);
    const first = await ok(call("POST", SR, putBody("P-DUP", [["C", 1]])));
    expect((await ok(call("POST", SR, putBody("P-DUP", [["C", 1]])))).id).toBe(first.id);
    expect(await code(call("POST", SR, putBody("P-DUP", [["C", 2]])))).toEqual([409, "duplicate_request"]);
  });
});
