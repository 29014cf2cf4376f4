/**
 * The screen's repository (services.repos.screen, which the screen takes as it is: station/screen
 * publisher.ts `ScreenStore`) over the agent's database: it reads the work the
 * station holds as the screen shows it, and the operators the screen remembers, whose language the
 * screen's state then speaks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenStore } from "../../../src/station/screen/publisher.js";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";

let t: TestAgent;
let reads: ScreenStore;
const settle = () => new Promise((r) => setTimeout(r, 20));

beforeAll(async () => {
  t = await startTestAgent();
  reads = t.agent.services.repos.screen;
});
afterAll(async () => {
  await t.close();
});

describe("screen reads door", () => {
  it("reads nothing at an empty station", () => {
    expect(reads.orders()).toEqual({});
    expect(reads.pickLines()).toEqual([]);
    expect(reads.pickWaiting()).toBe(false);
    expect(reads.racks()).toEqual([]);
    expect(reads.putItems()).toEqual([]);
    expect(reads.audit()).toBeNull();
    expect(reads.operators(8)).toEqual([]);
  });

  it("reads a pick's bin, then its line once its rack is presented", async () => {
    await seedItem(t, "A");
    await setStock(t, "S1", "M1", "A", 5);
    await ok(t.call("POST", SR, pickBody("P1", [pickLine("P1-1", "A", 2)])));
    expect(reads.pickWaiting()).toBe(true);
    const bins = Object.values(reads.orders());
    expect(bins).toEqual([[expect.objectContaining({ id: "P1", type: "PICK" })]]);
    expect(reads.pickLines()).toEqual([]);
    await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
    expect(reads.racks()).toEqual(["M1"]);
    expect(reads.pickLines()).toEqual([
      expect.objectContaining({
        order: "P1",
        line: "P1-1",
        slot: "S1",
        sku: "A",
        quantity: 2,
        scanRequired: false,
      }),
    ]);
  });

  it("remembers an operator who logs in, and their language is the screen's", async () => {
    await ok(t.call("POST", "/station/scans", { seat: "front", barcode: "BADGE-alice" }));
    await settle();
    expect(reads.operators(8)).toEqual(["alice"]);
    expect(reads.operatorLang("alice")).toBeNull();
    reads.setOperatorLang("alice", "de");
    expect(reads.operatorLang("alice")).toBe("de");
    const screen = (await ok(t.call("GET", "/station/seats/front/screen"))) as ScreenState;
    expect(screen).toMatchObject({ operator: "alice", lang: "de" });
    reads.sawOperator("bob", t.clock.now + 1000);
    expect(reads.operators(8)).toEqual(["bob", "alice"]);
    expect(reads.operators(1)).toEqual(["bob"]);
  });
});
