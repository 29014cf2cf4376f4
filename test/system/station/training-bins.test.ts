/**
 * Bins of a seat in training (docs/station.md#bins-of-a-seat), over a real HTTP server with the simulated
 * devices of a station file whose bins name their seats: while seat `front` trains, its bins' real lights
 * show the training station's work, their buttons act on the training database (the station's database
 * and outbox stay as they were), bin 4, back's, stays the station's, no new order is given front's bins,
 * a start over darkens what the training lit; when `front` leaves training, what the station has for its
 * bins (a complete bin, a pick another seat lit meanwhile) is back on their lights.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sqlite } from "../../../src/db/open.js";
import { startTestAgent, type TestAgent, tempDir } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import {
  CORE,
  type Json,
  NotificationReader,
  pickBody,
  pickLine,
  putBody,
  SR,
  seedItem,
  setStock,
} from "../../support/station.js";

const FILE = `station:
  seats: [front, back]
  bins:
    - { id: "1", seat: front, light: { device: ptl, address: "1" }, sensor: { device: beams, channel: bin-1 } }
    - { id: "2", seat: front, light: { device: ptl, address: "2" }, sensor: { device: beams, channel: bin-2 } }
    - { id: "3", seat: front, light: { device: ptl, address: "3" }, sensor: { device: beams, channel: bin-3 } }
    - { id: "4", seat: back, light: { device: ptl, address: "4" }, sensor: { device: beams, channel: bin-4 } }
    - { id: "5", light: { device: ptl, address: "5" }, sensor: { device: beams, channel: bin-5 } }
devices:
  - { id: ptl, kind: ptl-controller, profile: sim, transport: sim }
  - { id: beams, kind: bin-sensor, profile: sim, transport: sim }
  - { id: scan-front, kind: scanner, profile: sim, seat: front, transport: sim }
  - { id: scan-back, kind: scanner, profile: sim, seat: back, transport: sim }
`;

let t: TestAgent;
let base: string;

async function http(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${await t.token()}` };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Json) : {} };
}
async function ok(method: string, path: string, body?: unknown): Promise<Json> {
  const r = await http(method, path, body);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json;
}
/** What the real simulated light of each bin shows: `off`, or colour, quantity and blink. */
async function realLights(): Promise<Record<string, string>> {
  const { lights } = await ok("GET", "/station/sim/lights");
  const shown: Record<string, string> = {};
  for (const l of lights as Json[])
    shown[l.ppsBinId] =
      l.mode === "show" ? `${l.color}${l.quantity ?? ""}${l.blink ? " blink" : ""}` : l.mode;
  return shown;
}
const later = () => {
  t.clock.now += 1000; // past the scan debounce window
};
const screen = async (seat: string) => ok("GET", `/station/seats/${seat}/screen`);
const tap = (seat: string, action: Json) => ok("POST", `/station/seats/${seat}/screen/actions`, action);
const count = (db: Sqlite, sql: string) => (db.prepare(sql).get() as { n: number }).n;
/** The bin the station gave an order. */
const binOf = (order: string) =>
  (
    t.agent.db.sqlite
      .prepare("SELECT bin_id AS bin FROM service_requests WHERE type = 'PICK' AND external_id = ?")
      .get(order) as { bin: string | null }
  ).bin;

beforeAll(async () => {
  const file = join(tempDir(), "station.yaml");
  writeFileSync(file, FILE);
  t = await startTestAgent({ station: { file } }, { listen: true });
  base = `http://127.0.0.1:${t.agent.address?.port}`;
}, deadline(30_000));
afterAll(async () => t?.close());

describe("a training seat's own bins follow it", { timeout: deadline(60_000) }, () => {
  it("the station's work makes bin 1 complete: its light blinks green", async () => {
    await seedItem(t, "A");
    await setStock(t, "S1", "M1", "A", 10);
    await ok("POST", SR, pickBody("P1", [pickLine("P1-L1", "A", 1)]));
    await ok("POST", "/station/seats/back/login", { user: "bob" });
    later();
    await ok("POST", "/station/scans", { seat: "back", barcode: "M1" });
    later();
    const lit = await ok("POST", "/station/scans", { seat: "back", barcode: "BC-A" });
    expect(lit).toMatchObject({ did: "bin_lit", step: "pick_confirm" });
    const pressed = await ok("POST", "/station/sim/press", { ppsBinId: "1" });
    expect(pressed.outcome).toMatchObject({ did: "picked" });
    await until("bin 1 shows complete", async () => (await realLights())["1"] === "green blink");
    // the next order gets bin 2, front's: bins are given to orders station-wide
    await ok("POST", SR, pickBody("P2", [pickLine("P2-L1", "A", 3)]));
    expect(binOf("P2")).toBe("2");
  });

  it("front in training: its bins show the training's work on the real lights", async () => {
    expect(await ok("PUT", "/station/seats/front/training", { training: true })).toEqual({
      seats: ["front"],
    });
    // the training has nothing lit yet: the station's complete bin 1 no longer shows on front's light
    await until("front's bins show the training", async () => (await realLights())["1"] === "off");
    await tap("front", { type: "login", user: "trainee" });
    later();
    await tap("front", { type: "scan", barcode: "TRAIN-100" });
    const picking = await screen("front");
    expect(picking).toMatchObject({ training: true, step: "pick_confirm" });
    await until("the training's pick lit a bin of front on the real lights", async () => {
      const l = await realLights();
      return l["1"] === "green2" || l["2"] === "green2";
    });
  });

  it("the real button of front's bin confirms the training's pick: the station's database and outbox stay as they were", async () => {
    const db = t.agent.db.sqlite;
    const training = t.agent.training.database();
    if (!training) throw new Error("the training station is not open");
    const outbox = count(db, "SELECT count(*) AS n FROM outbox");
    const actuals = count(db, "SELECT count(*) AS n FROM actuals");
    const picked = count(training, "SELECT count(*) AS n FROM actuals");
    const bin = (await realLights())["1"] === "green2" ? "1" : "2";
    const pressed = await ok("POST", "/station/sim/press", { ppsBinId: bin });
    // the station's engine never saw the press
    expect(pressed.outcome).toBeNull();
    await until("the training's pick is confirmed", async () => (await screen("front")).step === "ready");
    expect(count(training, "SELECT count(*) AS n FROM actuals")).toBeGreaterThan(picked);
    expect(count(db, "SELECT count(*) AS n FROM actuals")).toBe(actuals);
    expect(count(db, "SELECT count(*) AS n FROM outbox")).toBe(outbox);
    // the station's bin 1 is still complete: the press did not empty it
    expect(db.prepare("SELECT state FROM bins WHERE id = '1'").get()).toMatchObject({ state: "complete" });
  });

  it("bin 4, back's, stays the station's; the station's light for a bin of front is held back; no new order gets one", async () => {
    const pressed = await ok("POST", "/station/sim/press", { ppsBinId: "4" });
    expect(pressed.outcome).not.toBeNull();
    // back picks into bin 2, front's, given to its order before front began training
    later();
    const lit = await ok("POST", "/station/scans", { seat: "back", barcode: "BC-A" });
    expect(lit).toMatchObject({ did: "bin_lit", step: "pick_confirm" });
    const { seats } = await ok("GET", "/station/engine");
    expect(seats).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ seat: "back", pick: expect.objectContaining({ binId: "2" }) }),
      ]),
    );
    // the station's light command for bin 2 was held back: it shows the training's state
    expect((await realLights())["2"]).toBe("off");
    // while front trains, no order is given its bins: the next one gets bin 4, not front's empty bin 3
    await ok("POST", SR, pickBody("P3", [pickLine("P3-L1", "A", 1)]));
    expect(binOf("P3")).toBe("4");
  });

  it("nothing is staged into front's bins while it trains: a staging fails with pps_bin_in_training, a put back stage is a 409", async () => {
    const n = new NotificationReader(t);
    await n.catchUp();
    await ok("POST", SR, putBody("U1", [["A", 1]]));
    await n.waitFor(1);
    await ok("POST", `${CORE}/stage_put_expectation`, {
      serviceRequestId: "U1",
      ppsId: "1",
      ppsBinId: "3",
    });
    const failed = (await n.waitFor(1)).at(-1);
    expect([failed?.notification_type, failed?.notification_data.state]).toEqual([
      "put_information",
      "stage_failure",
    ]);
    const codes = failed?.notification_data.attributes.alert_data.map((a: { code: string }) => a.code);
    expect(codes).toContain("pps_bin_in_training");
    const back = await http("POST", "/station/puts/U1/put-back-stage", { ppsBinId: "3" });
    expect(back.status).toBe(409);
    expect(back.json).toMatchObject({ code: "invalid_state", errors: [{ path: "ppsBinId" }] });
    expect(t.agent.db.sqlite.prepare("SELECT state FROM bins WHERE id = '3'").get()).toMatchObject({
      state: "empty",
    });
  });

  it("start over: what the last training lit goes off on front's real lights", async () => {
    later();
    await tap("front", { type: "scan", barcode: "TRAIN-100" });
    expect(await screen("front")).toMatchObject({ training: true, step: "pick_confirm" });
    const front = () => realLights().then((l) => [l["1"], l["2"], l["3"]]);
    await until("the training's second pick is lit", async () => (await front()).includes("green1"));
    await ok("POST", "/station/training/reset", {});
    expect(await screen("front")).toMatchObject({ training: true, operator: null, step: "ready" });
    await until("front's bins are dark", async () => (await front()).every((l) => l === "off"));
  });

  it("front leaves training: the station's state is back on its bins' lights", async () => {
    expect(await ok("PUT", "/station/seats/front/training", { training: false })).toEqual({ seats: [] });
    await until("bin 1 blinks green again", async () => {
      const l = await realLights();
      return l["1"] === "green blink" && l["2"] === "green3";
    });
    // and its button is the station's again: it empties the complete bin
    const pressed = await ok("POST", "/station/sim/press", { ppsBinId: "1" });
    expect(pressed.outcome).toMatchObject({ did: "binEmptied" });
    // and orders are given its bins again
    await ok("POST", SR, pickBody("P4", [pickLine("P4-L1", "A", 1)]));
    expect(binOf("P4")).toBe("1");
  });
});
