import { describe, expect, it } from "vitest";
import { checkPartition, fnv1a, owns } from "../src/partition.js";
import { parseTopic, seqOfId } from "../src/topics.js";

describe("partition by station", () => {
  it("is the FNV-1a hash of the station's topic levels, stable everywhere", () => {
    // reference values of 32-bit FNV-1a
    expect(fnv1a("")).toBe(0x811c9dc5);
    expect(fnv1a("a")).toBe(0xe40c292c);
    expect(fnv1a("foobar")).toBe(0xbf9cf968);
  });

  it("gives every station to exactly one of N instances, and spreads them", () => {
    const stations = Array.from({ length: 200 }, (_, i) => `dc1/${i + 1}`);
    for (const instances of [1, 2, 3, 5]) {
      const counts = Array.from({ length: instances }, (_, instance) =>
        stations.filter((s) => owns({ instance, instances }, s)),
      );
      expect(counts.flat().sort()).toEqual([...stations].sort());
      for (const c of counts) expect(c.length).toBeGreaterThan(200 / instances / 2);
    }
  });

  it("refuses an instance outside 0..N-1", () => {
    expect(() => checkPartition({ instance: 2, instances: 2 })).toThrow(/--instance/);
    expect(() => checkPartition({ instance: 0, instances: 0 })).toThrow(/--instances/);
  });
});

describe("topics", () => {
  it("reads the station and kind from the agent's topics, nothing else", () => {
    expect(parseTopic("ppsedge/v1/dc1/7/notification")).toEqual({ station: "dc1/7", kind: "notification" });
    expect(parseTopic("ppsedge/v1/dc1/7/state/station")).toEqual({ station: "dc1/7", kind: "state/station" });
    expect(parseTopic("ppsedge/v1/dc1/7/response/replay_notifications")?.kind).toBe(
      "response/replay_notifications",
    );
    expect(parseTopic("ppsedge/v1/dc1/7/state/PICK/P1")).toBeNull();
    expect(parseTopic("other/v1/dc1/7/notification")).toBeNull();
  });

  it("takes the seq from the end of notification_id", () => {
    expect(seqOfId("dc1.7.1042")).toBe(1042);
    expect(seqOfId("d.c.1.7.3")).toBe(3);
    expect(seqOfId("dc1.7.x")).toBeNull();
    expect(seqOfId(7)).toBeNull();
  });
});
