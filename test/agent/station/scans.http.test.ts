/**
 * `POST /station/scans` and the simulator's endpoints over the agent's own HTTP app, on the embedded
 * simulated station (docs/architecture.md#the-station-model: no station file → simulated scanners, lights, buttons and beams).
 * Bad input is a 400 naming the field, an unknown seat or bin a 404, a refused scan a 409
 * `scan_refused` with its reason; none changes anything.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import {
  kinds,
  NotificationReader,
  ok,
  pickBody,
  pickLine,
  SR,
  seedItem,
  setStock,
} from "../../support/station.js";

let t: TestAgent;
let n: NotificationReader;
const later = () => {
  t.clock.now += 1000;
};

beforeAll(async () => {
  t = await startTestAgent({ ppsId: "7" });
  n = new NotificationReader(t);
  await seedItem(t, "A");
  await setStock(t, "S1", "M1", "A", 10);
});
afterAll(async () => t.close());

async function refused(res: Promise<Response>, status: number, code: string) {
  const r = await res;
  const body = (await r.json()) as {
    code: string;
    errors: Array<{ path: string }>;
    details?: Record<string, unknown>;
  };
  expect([r.status, body.code], JSON.stringify(body)).toEqual([status, code]);
  return body;
}

describe("POST /station/scans: bad input", () => {
  it.each([
    ["no body fields", "seat", {}],
    ["no barcode", "barcode", { seat: "front" }],
    ["empty barcode", "barcode", { seat: "front", barcode: "" }],
    ["barcode too long", "barcode", { seat: "front", barcode: "x".repeat(4097) }],
    ["barcode not a string", "barcode", { seat: "front", barcode: 42 }],
    ["unknown field", "(body)", { seat: "front", barcode: "A", extra: 1 }],
  ])("%s → 400 naming %s", async (_, path, body) => {
    const b = await refused(t.call("POST", "/station/scans", body), 400, "validation_failed");
    expect(b.errors.map((e) => e.path)).toContain(path);
  });

  it("not JSON → 400 malformed_json; unknown seat → 404", async () => {
    const token = await t.token();
    const res = t.request("/station/scans", {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: "{nope",
    });
    await refused(res, 400, "malformed_json");
    await refused(t.call("POST", "/station/scans", { seat: "side", barcode: "A" }), 404, "not_found");
  });

  it("without a token → 401", async () => {
    const res = await t.request("/station/scans", { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
  });

  it.each([
    ["not logged in", "not_logged_in", "BC-A"],
    ["unknown barcode", "unknown_barcode", "NOPE-123"],
    ["unknown exception code", "bad_code", "EXC-NOPE"],
    ["a confirm with nothing lit", "nothing_pending", "EXC-CONFIRM"],
    ["an item with no work", "no_work", "BC-A"],
  ])("refused scan (%s) → 409 scan_refused, reason %s, nothing changed", async (name, reason, barcode) => {
    if (name === "unknown barcode") await ok(t.call("POST", "/station/seats/front/login", { user: "alice" }));
    await n.catchUp();
    later();
    const b = await refused(
      t.call("POST", "/station/scans", { seat: "front", barcode }),
      409,
      "scan_refused",
    );
    expect(b.details).toMatchObject({ reason, seat: "front" });
    expect(await n.next()).toEqual([]);
  });

  it("key-in: quantity must be a positive integer; with nothing pending it is refused", async () => {
    await refused(t.call("POST", "/station/seats/front/keyin", { quantity: 0 }), 400, "validation_failed");
    await refused(t.call("POST", "/station/seats/front/keyin", { quantity: 1.5 }), 400, "validation_failed");
    const b = await refused(
      t.call("POST", "/station/seats/front/keyin", { quantity: 1 }),
      409,
      "scan_refused",
    );
    expect(b.details).toMatchObject({ reason: "nothing_pending" });
  });
});

describe("a pick through POST /station/scans and the simulator", () => {
  it("scan answers what it resolved to; the simulated button confirms", async () => {
    await ok(t.call("POST", SR, pickBody("P1", [pickLine("P1-L1", "A", 2)])));
    later();
    expect(await ok(t.call("POST", "/station/scans", { seat: "front", barcode: "M1" }))).toMatchObject({
      result: "done",
      as: "msu",
      did: "rack_presented",
    });
    await n.catchUp();
    later();
    const lit = await ok(t.call("POST", "/station/scans", { seat: "front", barcode: "BC-A" }));
    expect(lit).toMatchObject({ result: "done", as: "item", did: "bin_lit", step: "pick_confirm" });
    // again at once: the scanner's double delivery is dropped, not refused
    expect(await ok(t.call("POST", "/station/scans", { seat: "front", barcode: "BC-A" }))).toMatchObject({
      result: "debounced",
    });
    const { lights } = await ok(t.call("GET", "/station/sim/lights"));
    const shown = lights.filter((l: { mode: string }) => l.mode === "show");
    expect(shown).toEqual([expect.objectContaining({ ppsBinId: "1", color: "green", quantity: 2 })]);

    await refused(t.call("POST", "/station/sim/press", { ppsBinId: "99" }), 404, "not_found");
    await refused(
      t.call("POST", "/station/sim/press", { ppsBinId: "1", device: "x" }),
      400,
      "validation_failed",
    );
    const pressed = await ok(t.call("POST", "/station/sim/press", { ppsBinId: "1" }));
    expect(pressed.outcome).toMatchObject({ result: "done", did: "picked", calls: ["pick"] });
    expect(kinds(await n.next())).toEqual([
      ["order_information", "pick_started"],
      ["order_information", "complete"],
      ["bin_complete", undefined],
    ]);
    expect((await ok(t.call("POST", "/station/sim/press", { ppsBinId: "1" }))).outcome).toMatchObject({
      did: "binEmptied",
    });
    expect((await ok(t.call("GET", "/station/engine"))).seats).toEqual(
      expect.arrayContaining([expect.objectContaining({ seat: "front", step: "ready" })]),
    );
  });
});
