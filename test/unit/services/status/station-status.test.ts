/**
 * The status builder that `pps-edge status` and `request/health_check` share
 * (services/status/station-status.ts): readiness, the outbox's depth and age, and the bins with work.
 */
import { describe, expect, it } from "vitest";
import {
  evaluateReadiness,
  stationStatus,
  statusLine,
  statusText,
} from "../../../../src/services/status/station-status.js";

const outbox = (undelivered: number, oldestAt?: number) => ({
  undeliveredCount: () => undelivered,
  oldestUndelivered: () => (oldestAt === undefined ? undefined : { seq: 5, createdAt: oldestAt }),
  deadCount: () => 2,
  lastSeq: () => 9,
});

const state = {
  mode: "pick",
  seats: [{ seat: "front", user: "alice", loggedInAt: "2026-11-21T10:00:00.000Z" }],
  bins: [
    { ppsBinId: "A1", state: "in_use", requests: [{ type: "PICK", externalServiceRequestId: "ORD-1" }] },
    { ppsBinId: "A2", state: "empty", requests: [] },
  ],
};

describe("the station status", () => {
  it("a check that throws fails with its message", () => {
    expect(
      evaluateReadiness([
        { name: "a", check: () => ({ ok: true }) },
        {
          name: "b",
          check: () => {
            throw new Error("gone");
          },
        },
      ]),
    ).toEqual({ ready: false, checks: { a: { ok: true }, b: { ok: false, detail: "gone" } } });
  });

  it("sums up a ready agent: the outbox's depth and age, the bins with work only", () => {
    const s = stationStatus({
      version: "1.2.3",
      agent: { pid: 42, since: "2026-11-21T09:00:00.000Z" },
      readiness: { ready: true, checks: { database: { ok: true }, mqtt: { ok: true, detail: "off" } } },
      outbox: outbox(3, 1_000),
      state,
      now: 61_000,
    });
    expect(s).toMatchObject({
      ready: true,
      problem: null,
      outbox: { undelivered: 3, oldestUndeliveredAgeSeconds: 60, deadLetters: 2, lastSeq: 9 },
      binsWithWork: [{ ppsBinId: "A1", state: "in_use", requests: ["PICK ORD-1"] }],
    });
    expect(statusText(s)).toEqual([
      "agent: running, pid 42, since 2026-11-21T09:00:00.000Z; version 1.2.3",
      "ready: yes",
      "  database  ok",
      "  mqtt      ok    off",
      "outbox: 3 undelivered, oldest 60 s; 2 dead letters; last seq 9",
      "mode: pick",
      "seats: front (alice since 2026-11-21T10:00:00.000Z)",
      "bins with work:",
      "  A1 (in_use): PICK ORD-1",
    ]);
    expect(statusLine(s)).toBe("ready; outbox 3 undelivered (oldest 60 s), 2 dead letters");
  });

  it("names what is wrong: a failing check, an agent that did not answer, none running", () => {
    const base = { version: "1", outbox: outbox(0), state, now: 0 };
    const agent = { pid: 1, since: "x" };
    const failing = {
      ready: false,
      checks: { outbox: { ok: false, detail: "9 undelivered" }, mqtt: { ok: true } },
    };
    expect(stationStatus({ ...base, agent, readiness: failing }).problem).toBe("not ready: outbox");
    expect(stationStatus({ ...base, agent, readiness: "ECONNREFUSED" }).problem).toBe(
      "the running agent did not answer: ECONNREFUSED",
    );
    const stopped = stationStatus({ ...base, agent: null, readiness: null });
    expect(stopped).toMatchObject({
      running: false,
      ready: false,
      problem: "the agent is not running",
      checks: {},
    });
  });
});
