/**
 * Conformance: "Endpoints" → "Service requests", the staging conditions under Stage put ("the PPS must be
 * in put mode and logged in (unless the configuration allows staging with logout); the bin must be
 * empty"), and "Events" rule 5 (staging failure: state stage_failure with attributes.alert_data). The
 * notifications are read off the embedded broker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CORE, type Envelope, type Json, kinds, ok, putBody, SR, seedItem } from "../support/station.js";
import { ask, PPS } from "../support/sync/agent.js";
import { type Central, startCentral } from "./support/central.js";

let c: Central;
let lax: Central;

beforeAll(async () => {
  c = await startCentral();
  lax = await startCentral({ station: { stagingWithLogout: true } });
  for (const central of [c, lax]) {
    await seedItem(central.t, "C");
    await ok(central.t.call("PUT", "/station/mode", { mode: "put" }));
  }
});
afterAll(async () => {
  await c?.close();
  await lax?.close();
});

const stageBody = (id: string, bin: string) => ({ serviceRequestId: id, ppsId: PPS, ppsBinId: bin });
const stateOf = async (central: Central, id: string) =>
  (await ok(central.t.call("GET", `${SR}/${id}?type=PUT`))).state as string;

/** Creates the put, stages it over HTTP and returns the notifications of that staging. */
async function stage(central: Central, id: string, bin: string): Promise<Envelope[]> {
  await ok(central.t.call("POST", SR, putBody(id, [["C", 1]])));
  await central.mark();
  const res = await central.t.call("POST", `${CORE}/stage_put_expectation`, stageBody(id, bin));
  expect([res.status, await res.text()]).toEqual([200, ""]);
  return central.sinceAtLeast(1);
}

const alerts = (note: Envelope | undefined) =>
  ((note?.notification_data.attributes.alert_data ?? []) as Json[]).map((a) => a.code);

describe("staging conditions", () => {
  it("Stage put: the PPS must be logged in → stage_failure pps_not_logged_in; back to created, the bin stays empty", async () => {
    const [failed, ...more] = await stage(c, "G-LOGIN", "2");
    expect(more).toEqual([]);
    expect(failed?.notification_type).toBe("put_information");
    expect(failed?.notification_data).toMatchObject({
      externalServiceRequestId: "G-LOGIN",
      state: "stage_failure",
    });
    expect(failed?.notification_data.attributes.alert_data).toEqual([
      { code: "pps_not_logged_in", description: expect.any(String) },
    ]);
    expect(await stateOf(c, "G-LOGIN")).toBe("created");
  });

  it("Stage put: the PPS must be in put mode → stage_failure pps_mode_incorrect (rule 5's named case); back to created", async () => {
    await ok(c.t.call("POST", "/station/seats/back/login", { user: "bob" }));
    await ok(c.t.call("PUT", "/station/mode", { mode: "pick" }));
    const [failed] = await stage(c, "G-MODE", "2");
    expect(failed?.notification_data.state).toBe("stage_failure");
    expect(alerts(failed)).toEqual(["pps_mode_incorrect"]);
    expect(await stateOf(c, "G-MODE")).toBe("created");
  });

  it("Stage put: every condition that fails is an alert: not in put mode and nobody logged in → [pps_mode_incorrect, pps_not_logged_in]", async () => {
    await ok(c.t.call("POST", "/station/seats/back/logout"));
    const [failed] = await stage(c, "G-BOTH", "2");
    expect(alerts(failed)).toEqual(["pps_mode_incorrect", "pps_not_logged_in"]);
    await ok(c.t.call("PUT", "/station/mode", { mode: "put" }));
  });

  it("Stage put over MQTT (stage_put): a failing condition answers ok and reports stage_failure off the broker, as over HTTP", async () => {
    await ok(c.t.call("POST", SR, putBody("G-MQTT", [["C", 1]])));
    await c.mark();
    const res = JSON.parse(
      await ask(c.broker, "stage_put", { transaction: "g-1", ...stageBody("G-MQTT", "2") }),
    ) as Json;
    expect(res).toMatchObject({ status: "ok", data: {} });
    const [failed] = await c.sinceAtLeast(1);
    expect(alerts(failed)).toEqual(["pps_not_logged_in"]);
    expect(await stateOf(c, "G-MQTT")).toBe("created");
  });

  it("Stage put: once the station is fixed the same put stages (staged, bin holds it)", async () => {
    await ok(c.t.call("POST", "/station/seats/back/login", { user: "bob" }));
    await c.mark();
    await ok(c.t.call("POST", `${CORE}/stage_put_expectation`, stageBody("G-MQTT", "2")));
    expect(kinds(await c.sinceAtLeast(1))).toEqual([["put_information", "staged"]]);
    expect(await stateOf(c, "G-MQTT")).toBe("staged");
  });

  it("Stage put: the bin must be empty → stage_failure pps_bin_not_empty", async () => {
    const [failed] = await stage(c, "G-BIN", "2");
    expect(alerts(failed)).toEqual(["pps_bin_not_empty"]);
    expect(await stateOf(c, "G-BIN")).toBe("created");
  });

  it("Stage put: unless the configuration allows staging with logout (station.stagingWithLogout) → staged with nobody logged in, user_name and pps_seat_name null", async () => {
    const [staged, ...more] = await stage(lax, "L-OUT", "2");
    expect(more).toEqual([]);
    expect(staged?.notification_data).toMatchObject({
      externalServiceRequestId: "L-OUT",
      state: "staged",
      attributes: { pps_id: PPS, pps_bin_id: "2", pps_seat_name: null, user_name: null },
    });
    expect(await stateOf(lax, "L-OUT")).toBe("staged");
  });

  it("Stage put: staging with logout still needs put mode → stage_failure pps_mode_incorrect only", async () => {
    // L-OUT's tote stands in bin 2: the bin is emptied before the station may leave put mode
    await ok(lax.t.call("POST", "/station/bins/2/empty"));
    await ok(lax.t.call("PUT", "/station/mode", { mode: "audit" }));
    const before = await lax.t.call("GET", `${SR}/L-OUT?type=PUT`);
    expect(((await before.json()) as Json).state).toBe("created");
    const [failed] = await stage(lax, "L-MODE", "3");
    expect(alerts(failed)).toEqual(["pps_mode_incorrect"]);
  });
});

describe("Stage put: the answer", () => {
  it("Stage put | 200 with empty body: answered as JSON to Accept: application/json (the type every endpoint answers), never text/plain", async () => {
    await ok(c.t.call("POST", SR, putBody("G-TYPE", [["C", 1]])));
    const res = await c.call("POST", `${CORE}/stage_put_expectation`, stageBody("G-TYPE", "6"), {
      Accept: "application/json",
    });
    expect([res.status, res.headers.get("content-type"), await res.text()]).toEqual([
      200,
      "application/json",
      "",
    ]);
  });
});
