import { describe, expect, it } from "vitest";
import {
  accepted,
  admitsCostly,
  evictable,
  holdPlacesMs,
  observe,
  overBudget,
  type Progress,
  type ProgressRules,
  placesFor,
  type Watched,
} from "../../../src/domain/connection-progress.js";

/** Which connections the station cuts or lets go when their clients do not read (docs/limits.md#slow-readers). */
const RULES: ProgressRules = {
  sendTimeoutMs: 10_000,
  minSendBytesPerSecond: 4096,
  budgetBytes: 1000,
  stallMs: 1000,
  heldBackPlaces: 4,
};

function conn(id: string, address: string, p: Progress, inFlight = 0): Watched<string> {
  return { id, address, progress: p, inFlight };
}
const sample = (held: number, written: number, begun = 1, answered = 0) => ({
  held,
  written,
  begun,
  answered,
});

describe("the send deadline", () => {
  it("answers waiting 10 s while the client took less than 4 KiB a second cut the connection", () => {
    let p = accepted(0);
    p = observe(p, sample(500, 100), 0, RULES).progress;
    expect(observe(p, sample(500, 100), 9_999, RULES).cut).toBe(false);
    expect(observe(p, sample(500, 100 + 40_000), 10_000, RULES).cut).toBe(true);
  });

  it("a client that keeps the pace, or takes everything, is never cut", () => {
    let p = observe(accepted(0), sample(500, 0), 0, RULES).progress;
    const kept = observe(p, sample(500, 50_000), 10_000, RULES);
    expect(kept.cut).toBe(false);
    p = observe(kept.progress, sample(0, 50_000), 15_000, RULES).progress;
    expect(observe(p, sample(0, 50_000), 60_000, RULES).cut).toBe(false);
  });
});

describe("the answer budget", () => {
  const stalled = observe(accepted(0), sample(800, 0), 0, RULES).progress;
  const reading = observe(accepted(0), sample(600, 0), 1_900, RULES).progress;

  it("over it, the connections that took nothing for 1 s are cut, the most held first, until under it", () => {
    const small = observe(accepted(0), sample(500, 0), 0, RULES).progress;
    const all = [conn("big", "a", stalled), conn("small", "a", small), conn("reading", "b", reading)];
    expect(overBudget(all, 2_000, RULES)).toEqual(["big", "small"]);
    expect(overBudget([conn("reading", "b", reading)], 2_000, RULES)).toEqual([]);
  });

  it("a costly request waits only if its address holds some of the answers and the budget is full", () => {
    const all = [conn("big", "a", stalled), conn("reading", "b", reading)];
    expect(admitsCostly(all, "a", RULES)).toBe(false);
    expect(admitsCostly(all, "c", RULES)).toBe(true);
    // an address the station cut for unread answers is held back for sendTimeoutMs, whatever it holds now
    expect(admitsCostly([], "a", RULES, 9_999, 0)).toBe(false);
    expect(admitsCostly([], "a", RULES, 10_000, 0)).toBe(true);
    expect(
      admitsCostly([conn("small", "a", observe(accepted(0), sample(10, 0), 0, RULES).progress)], "a", RULES),
    ).toBe(true);
  });
});

describe("an address cut for unread answers", () => {
  it("holds heldBackPlaces for two send deadlines after its last cut, then its own places again", () => {
    expect(holdPlacesMs(RULES)).toBe(20_000);
    expect(placesFor(64, undefined, 5_000, RULES)).toBe(64);
    expect(placesFor(64, 1_000, 1_000, RULES)).toBe(4);
    // past one deadline (when its costly requests are let again) it is still held to a few places
    expect(placesFor(64, 1_000, 11_000, RULES)).toBe(4);
    expect(placesFor(64, 1_000, 20_999, RULES)).toBe(4);
    expect(placesFor(64, 1_000, 21_000, RULES)).toBe(64);
    // never more than the address's own limit
    expect(placesFor(2, 1_000, 1_000, RULES)).toBe(2);
  });
});

describe("eviction when every place is taken", () => {
  it("a connection being served is never taken; one stalled on its answers goes before a silent one", () => {
    const silent = accepted(0);
    const stalled = observe(accepted(0), sample(800, 0), 0, RULES).progress;
    const working = observe(accepted(0), sample(0, 0), 0, RULES).progress;
    const all = [
      conn("silent", "h", silent),
      conn("stalled", "h", stalled),
      conn("working", "h", working, 1),
    ];
    expect(evictable(all, "n", 2_000, RULES)).toBe("stalled");
    expect(
      evictable([conn("silent", "h", silent), conn("working", "h", working, 1)], "n", 2_000, RULES),
    ).toBe("silent");
    expect(evictable([conn("working", "h", working, 1)], "n", 2_000, RULES)).toBeUndefined();
  });

  it("a host with few places takes one of a host holding many, even one that moved just now", () => {
    const fresh = observe(accepted(1_900), sample(800, 0), 1_900, RULES).progress;
    const many = [conn("m1", "many", fresh), conn("m2", "many", fresh), conn("m3", "many", fresh)];
    expect(evictable(many, "few", 2_000, RULES)).toBe("m1");
    // the host holding them cannot push out its own fresh connections
    expect(evictable(many, "many", 2_000, RULES)).toBeUndefined();
    // hosts of equal share do not take each other's places, even stalled ones
    const stalled = observe(accepted(0), sample(800, 0), 0, RULES).progress;
    const two = [conn("a1", "a", stalled), conn("a2", "a", stalled), conn("b1", "b", stalled)];
    expect(evictable(two, "b", 5_000, RULES)).toBeUndefined();
    expect(evictable(two, "c", 5_000, RULES)).toBe("a1");
    // a keep-alive connection just answered is about to be used again: not taken, whatever its host holds
    const answered = observe(accepted(0), sample(0, 100, 1, 1), 4_900, RULES).progress;
    const idle = [conn("k1", "k", answered), conn("k2", "k", answered), conn("k3", "k", answered)];
    expect(evictable(idle, "c", 5_000, RULES)).toBeUndefined();
    expect(evictable(idle, "c", 6_000, RULES)).toBe("k1");
  });
});
