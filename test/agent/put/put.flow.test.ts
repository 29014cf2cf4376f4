import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import {
  CORE,
  kinds,
  NotificationReader,
  ok,
  putBody,
  SR,
  seedItem,
  stockOf,
} from "../../support/station.js";

let t: TestAgent;
let n: NotificationReader;
const item: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestAgent({ ppsId: "7" });
  n = new NotificationReader(t);
  for (const sku of ["C", "E"]) item[sku] = await seedItem(t, sku);
});
afterAll(async () => t.close());

const stage = (id: string, bin = "3", ppsId = "7") =>
  t.call("POST", `${CORE}/stage_put_expectation`, { serviceRequestId: id, ppsId, ppsBinId: bin });

describe("put: created → stage_requested → staged → complete → released", () => {
  it("a failed staging says why; the request can be staged again once the station is ready", async () => {
    await n.catchUp();
    const created = await ok(t.call("POST", SR, putBody("U1", [["C", 5]])));
    expect(created).toMatchObject({
      type: "PUT",
      status: "CREATED",
      state: "CREATED",
      attributes: { tote_id: "TOTE-1" },
    });
    expect(created.expectations.containers[0].products[0]).toMatchObject({
      id: expect.any(Number),
      productQuantity: 5,
    });

    const res = await stage("U1");
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    const fail = await n.waitFor(1);
    expect(kinds(fail)).toEqual([["put_information", "stage_failure"]]);
    expect(fail[0]?.notification_data.attributes.alert_data).toEqual([
      { code: "pps_mode_incorrect", description: expect.any(String) },
      { code: "pps_not_logged_in", description: expect.any(String) },
    ]);
    expect((await ok(t.call("GET", `${SR}/U1?type=PUT`))).state).toBe("created");

    await ok(t.call("PUT", "/station/mode", { mode: "put" }));
    await ok(t.call("POST", "/station/seats/back/login", { user: "bob" }));
    await ok(stage("U1"));
    const staged = await n.waitFor(1);
    expect(kinds(staged)).toEqual([["put_information", "staged"]]);
    expect(staged[0]?.notification_data).toMatchObject({
      status: "PROCESSING",
      attributes: { pps_bin_id: "3", pps_id: "7", user_name: "bob" },
    });
  });

  it("put transactions add stock; exceptions emit put_transaction; the last one completes with every transaction", async () => {
    await n.catchUp();
    await ok(t.call("POST", "/station/racks", { msu: "M5", locations: ["S50", "S51"] }));
    await ok(
      t.call("POST", "/station/puts", {
        externalServiceRequestId: "U1",
        product_sku: "C",
        location: "S50",
        quantity: 2,
      }),
    );
    expect(await n.next()).toEqual([]);
    expect(await stockOf(t, "S50", item.C as number)).toMatchObject({ quantity: 2 });

    await ok(
      t.call("POST", "/station/puts/exceptions", {
        externalServiceRequestId: "U1",
        product_sku: "C",
        quantity: 1,
        reason: "front_physically_damaged",
      }),
    );
    const ex = await n.next();
    expect(kinds(ex)).toEqual([["put_information", "put_transaction"]]);
    expect(ex[0]?.notification_data.actuals.containers).toEqual([
      expect.objectContaining({
        state: "front_physically_damaged",
        products: [expect.objectContaining({ productQuantity: 1 })],
      }),
    ]);
    expect(ex[0]?.notification_data.attributes).toMatchObject({
      user_name: "bob",
      pps_id: "7",
      pps_seat_name: "back",
      pps_bin_id: "3",
    });

    // excess items are extra: they do not settle the expected quantity
    await ok(
      t.call("POST", "/station/puts/exceptions", {
        externalServiceRequestId: "U1",
        product_sku: "C",
        quantity: 4,
        reason: "back_excess_entities",
      }),
    );
    expect(kinds(await n.next())).toEqual([["put_information", "put_transaction"]]);

    await ok(
      t.call("POST", "/station/puts", {
        externalServiceRequestId: "U1",
        product_sku: "C",
        location: "S51",
        quantity: 2,
      }),
    );
    const done = await n.next();
    expect(kinds(done)).toEqual([["put_information", "complete"]]);
    expect(done[0]?.notification_data.status).toBe("PROCESSED");
    expect(done[0]?.notification_data.actuals.containers.map((c: { state: string }) => c.state)).toEqual([
      "complete",
      "front_physically_damaged",
      "back_excess_entities",
      "complete",
    ]);
    expect(done[0]?.notification_data.actuals.containers[3].containerAttributes).toEqual({ location: "S51" });
    expect(await stockOf(t, "S51", item.C as number)).toMatchObject({ quantity: 2 });
  });

  it("release frees the bin (released, status PROCESSED)", async () => {
    const r = await ok(t.call("POST", "/station/puts/U1/release"));
    expect(r).toMatchObject({ state: "released", status: "PROCESSED" });
    const state = await ok(t.call("GET", "/station/state"));
    expect(state.bins.find((b: { ppsBinId: string }) => b.ppsBinId === "3").state).toBe("empty");
    expect((await t.call("POST", "/station/puts/U1/release")).status).toBe(409);
  });

  it("put back staging moves created → staged directly, into an empty bin", async () => {
    await ok(t.call("POST", SR, putBody("U2", [["E", 1]])));
    const r = await ok(t.call("POST", "/station/puts/U2/put-back-stage", { ppsBinId: "4" }));
    expect(r).toMatchObject({ state: "staged" });
    await ok(t.call("POST", SR, putBody("U3", [["E", 1]])));
    await ok(stage("U3", "4"));
    const fail = await n.waitFor(1);
    expect(kinds(fail).at(-1)).toEqual(["put_information", "stage_failure"]);
    expect(fail.at(-1)?.notification_data.attributes.alert_data.map((a: { code: string }) => a.code)).toEqual(
      ["pps_bin_not_empty"],
    );
  });

  it("cancel and modify only in created: 200 {id}; later a modify or a cancel is a 409 and nothing changes", async () => {
    await ok(t.call("POST", SR, putBody("U4", [["E", 3]])));
    const mod = await ok(
      t.call("POST", `${SR}/modify`, {
        externalServiceRequestId: "U4",
        type: "PUT",
        attributes: { tote_id: "TOTE-9" },
      }),
    );
    expect(mod).toMatchObject({ id: expect.any(Number), externalServiceRequestId: "U4", type: "PUT" });
    expect((await ok(t.call("GET", `${SR}/U4?type=PUT`))).attributes).toMatchObject({ tote_id: "TOTE-9" });
    const cancel = await ok(t.call("POST", `${SR}/cancel`, { externalServiceRequestId: "U4", type: "PUT" }));
    expect(cancel.id).toBe(mod.id);
    expect((await ok(t.call("GET", `${SR}/U4?type=PUT`))).state).toBe("cancelled");
    const late = await t.call("POST", `${SR}/modify`, {
      externalServiceRequestId: "U2",
      type: "PUT",
      attributes: { tote_id: "TOTE-8" },
    });
    expect(late.status).toBe(409);
    expect((await ok(t.call("GET", `${SR}/U2?type=PUT`))).state).toBe("staged");
    // staged, even with no put transaction yet: its tote is in the bin, the cancel is refused
    const cancelStaged = await t.call("POST", `${SR}/cancel`, {
      externalServiceRequestId: "U2",
      type: "PUT",
    });
    expect(cancelStaged.status).toBe(409);
    expect((await ok(t.call("GET", `${SR}/U2?type=PUT`))).state).toBe("staged");
  });
});
