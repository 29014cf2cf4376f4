/**
 * The screen publisher in the agent (no browser): a connected screen gets the state at once, then a new
 * state after every scan, tap and committed change, once per change and never the same state twice;
 * `GET /station/seats/{seat}/screen` returns the same object.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";

let t: TestAgent;
const got: ScreenState[] = [];
let unsubscribe: () => void;
const settle = () => new Promise((r) => setTimeout(r, 20));
const latest = () => got[got.length - 1] as ScreenState;

beforeAll(async () => {
  t = await startTestAgent();
  unsubscribe = t.agent.screen.publisher.subscribe("front", (json) => got.push(JSON.parse(json)));
});
afterAll(async () => {
  unsubscribe();
  await t.close();
});

describe("screen publisher", () => {
  it("sends the state at once, and the same object as the JSON read", async () => {
    expect(got).toHaveLength(1);
    expect(latest()).toMatchObject({
      seat: "front",
      operator: null,
      instruction: { key: "instruction.login" },
    });
    expect(await ok(t.call("GET", "/station/seats/front/screen"))).toEqual(latest());
  });

  it("pushes after a scan (with its last event), a committed change and a refused scan", async () => {
    await ok(t.call("POST", "/station/scans", { seat: "front", barcode: "BADGE-alice" }));
    await settle();
    expect(latest()).toMatchObject({ operator: "alice", lastEvent: { text: "BADGE-alice", tone: "good" } });
    const before = got.length;
    await seedItem(t, "A");
    await setStock(t, "S1", "M1", "A", 5);
    await ok(t.call("POST", SR, pickBody("P1", [pickLine("P1-1", "A", 2)])));
    await settle();
    expect(got.length).toBeGreaterThan(before);
    expect(latest().instruction.key).toBe("instruction.waiting_rack");
    t.clock.now += 1000;
    const refused = await t.call("POST", "/station/scans", { seat: "front", barcode: "NOPE" });
    expect(refused.status).toBe(409);
    await settle();
    expect(latest().lastEvent).toMatchObject({
      result: "refused",
      reason: "unknown_barcode",
      tone: "refused",
    });
  });

  it("never sends the same state twice", async () => {
    const n = got.length;
    t.agent.screen.publisher.changed();
    t.agent.services.bus.emit("station", {});
    await settle();
    expect(got).toHaveLength(n);
    for (let i = 1; i < got.length; i++) expect(JSON.stringify(got[i])).not.toBe(JSON.stringify(got[i - 1]));
  });

  it("the other seat's screen sees the bins this seat lit", async () => {
    const back: ScreenState[] = [];
    const off = t.agent.screen.publisher.subscribe("back", (json) => back.push(JSON.parse(json)));
    await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
    t.clock.now += 1000;
    await ok(t.call("POST", "/station/scans", { seat: "front", barcode: "BC-A" }));
    await settle();
    const lit = back[back.length - 1]?.bins.find((b) => b.light.mode === "show");
    expect(lit).toMatchObject({ id: "1", mine: false, light: { color: "green", quantity: 2 } });
    off();
  });
});
