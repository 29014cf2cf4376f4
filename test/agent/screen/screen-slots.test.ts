/**
 * The screen's read of the presented racks' slots and their items (db/screen.repo.ts `putSlots`), from
 * which the put card suggests a slot (docs/station.md#paths-of-a-shift).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenRepo } from "../../../src/db/screen.repo.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { ok, seedItem, setStock } from "../../support/station.js";

let t: TestAgent;
let reads: ScreenRepo;

beforeAll(async () => {
  t = await startTestAgent();
  reads = t.agent.services.repos.screen;
});
afterAll(async () => t.close());

describe("screen reads: the presented racks' slots", () => {
  it("nothing before a rack is presented; then every slot, with the items stocked there or none", async () => {
    const a = await seedItem(t, "A");
    await setStock(t, "S1", "M1", "A", 5);
    await setStock(t, "S9", "M2", "A", 5);
    expect(reads.putSlots()).toEqual([]);
    await ok(t.call("POST", "/station/racks", { msu: "M1", locations: ["S1", "S2"] }));
    expect(reads.putSlots()).toEqual([
      { slot: "S1", itemId: a },
      { slot: "S2", itemId: null },
    ]);
  });
});
