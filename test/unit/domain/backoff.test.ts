/**
 * Reconnect delays (docs/mqtt.md#backoff-and-reconnects): full jitter bounded by `maxMs` while the broker
 * is away, so a fleet is back within that of the broker's return and spread over it; equal jitter
 * growing to `flappingMaxMs` for connections that keep breaking soon after they were made.
 */
import { describe, expect, it } from "vitest";
import {
  type BackoffOptions,
  backoffDelay,
  FAILOVER_SPREAD_MS,
  failbackHoldMs,
  failbackProbeMs,
  failbackTarget,
  failoverMinMs,
  nextServer,
} from "../../../src/domain/backoff.js";

/** The defaults (docs/configuration.md). */
const opts: BackoffOptions = { minMs: 1000, maxMs: 4000, flappingMaxMs: 60_000 };

/** A seeded source in [0, 1) (mulberry32): the same draws on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A fleet whose stable connections broke at 0 while the broker is away until `outageMs`: each
 * station's attempts fail at once (connection refused) until then. Returns, per station, how long
 * after the broker's return its first attempt came.
 */
function fleetLag(stations: number, outageMs: number, random: () => number): number[] {
  return Array.from({ length: stations }, () => {
    let at = 0;
    for (let attempt = 0; ; attempt++) {
      at += backoffDelay({ attempt, flaps: 0 }, opts, random);
      if (at >= outageMs) return at - outageMs;
    }
  });
}

describe("reconnect backoff while the broker is away (full jitter)", () => {
  it.each([
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [3, 4000],
    [40, 4000],
  ])("attempt %i waits between 0 and %i ms", (attempt, high) => {
    expect(backoffDelay({ attempt, flaps: 0 }, opts, () => 0)).toBe(0);
    expect(backoffDelay({ attempt, flaps: 0 }, opts, () => 1)).toBe(high);
  });

  it("the first retry after a stable connection is spread evenly over [0, reconnectMinMs]", () => {
    const random = seeded(1);
    const delays = Array.from({ length: 10_000 }, () => backoffDelay({ attempt: 0, flaps: 0 }, opts, random));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(1000);
    const mean = delays.reduce((a, b) => a + b, 0) / delays.length;
    expect(mean).toBeGreaterThan(480);
    expect(mean).toBeLessThan(520);
    // ten 100 ms buckets, each about a tenth
    const buckets = Array.from({ length: 10 }, (_, i) =>
      delays.filter((d) => d >= i * 100 && d < (i + 1) * 100 + (i === 9 ? 1 : 0)),
    );
    for (const b of buckets) expect(b.length / delays.length).toBeGreaterThan(0.085);
    for (const b of buckets) expect(b.length / delays.length).toBeLessThan(0.115);
  });

  it.each([1_000, 5_000, 20_000, 120_000])(
    "after a %i ms outage a fleet of 1,000 is back within reconnectMaxMs, without a herd",
    (outageMs) => {
      const lag = fleetLag(1000, outageMs, seeded(outageMs));
      expect(Math.max(...lag)).toBeLessThanOrEqual(opts.maxMs);
      // spread out: no 100 ms holds more than a tenth of the fleet's first attempts (a herd: all of them)
      const perSlot = new Map<number, number>();
      for (const l of lag) perSlot.set(Math.floor(l / 100), (perSlot.get(Math.floor(l / 100)) ?? 0) + 1);
      expect(Math.max(...perSlot.values())).toBeLessThanOrEqual(100);
    },
  );
});

describe("reconnect backoff while connections flap (equal jitter)", () => {
  it.each([
    [0, 500, 1000],
    [1, 1000, 2000],
    [3, 4000, 8000],
    [6, 30_000, 60_000],
    [20, 30_000, 60_000],
  ])("attempt %i waits between %i and %i ms", (attempt, low, high) => {
    expect(backoffDelay({ attempt, flaps: 1 }, opts, () => 0)).toBe(low);
    expect(backoffDelay({ attempt, flaps: 1 }, opts, () => 1)).toBe(high);
  });

  it("keeps growing past reconnectMaxMs, so a loop of accepted-then-kicked connections slows down", () => {
    const random = seeded(7);
    const delays = Array.from({ length: 12 }, (_, i) =>
      backoffDelay({ attempt: i, flaps: i + 1 }, opts, random),
    );
    // a dozen flaps take minutes, not the seconds a broker that bans flapping clients counts
    expect(delays.reduce((a, b) => a + b, 0)).toBeGreaterThan(3 * 60_000);
    expect(delays.slice(6).every((d) => d >= 30_000)).toBe(true);
  });

  it("never below reconnectMaxMs's ceiling when reconnectFlappingMaxMs is set lower", () => {
    const low = { ...opts, maxMs: 10_000, flappingMaxMs: 2_000 };
    expect(backoffDelay({ attempt: 10, flaps: 3 }, low, () => 1)).toBe(10_000);
  });

  it("jitter spreads a fleet's reconnects", () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay({ attempt: 4, flaps: 1 }, opts)));
    expect(delays.size).toBeGreaterThan(10);
  });
});

describe("the nodes of a clustered broker, tried in turn (docs/mqtt.md#a-clustered-broker)", () => {
  it("a lost connection goes to the next node at once; the step grows once per round", () => {
    // lost at node 0 of 3: nodes 1 and 2 are fresh, node 0 again closes the round
    let r = nextServer({ server: 0, roundStart: 0 }, 3, true);
    expect(r).toEqual({ server: 1, roundStart: 0, fresh: true });
    r = nextServer(r, 3, false);
    expect(r).toEqual({ server: 2, roundStart: 0, fresh: true });
    r = nextServer(r, 3, false);
    expect(r).toEqual({ server: 0, roundStart: 0, fresh: false });
    r = nextServer(r, 3, false);
    expect(r.fresh).toBe(true);
  });

  it("a connection lost at a later node starts the round there", () => {
    const r = nextServer({ server: 2, roundStart: 0 }, 3, true);
    expect(r).toEqual({ server: 0, roundStart: 2, fresh: true });
  });

  it("one address: every attempt is a new round, as without a cluster", () => {
    expect(nextServer({ server: 0, roundStart: 0 }, 1, true)).toEqual({
      server: 0,
      roundStart: 0,
      fresh: false,
    });
    expect(nextServer({ server: 0, roundStart: 0 }, 1, false).fresh).toBe(false);
  });
});

describe("the first attempt at another node after a node's death (docs/mqtt.md#a-clustered-broker)", () => {
  /** The delay a station draws for its next attempt, as src/sync/connection.ts asks for it. */
  const next = (fresh: boolean, attempt: number, flaps: number, random: () => number) =>
    backoffDelay(
      { attempt: fresh ? 0 : attempt, flaps },
      { ...opts, minMs: failoverMinMs(fresh, flaps, opts.minMs) },
      random,
    );

  it("comes within a quarter of a second at a node not yet tried, spread over that time", () => {
    const draws = Array.from({ length: 1000 }, (_, i) => next(true, 0, 0, seeded(i)));
    expect(Math.max(...draws)).toBeLessThanOrEqual(FAILOVER_SPREAD_MS);
    expect(draws.filter((d) => d < FAILOVER_SPREAD_MS / 2).length).toBeGreaterThan(400);
    expect(draws.filter((d) => d >= FAILOVER_SPREAD_MS / 2).length).toBeGreaterThan(400);
  });

  it("keeps reconnectMinMs for the same broker again, and when it is smaller", () => {
    expect(failoverMinMs(false, 0, 1000)).toBe(1000);
    expect(failoverMinMs(true, 0, 100)).toBe(100);
    const draws = Array.from({ length: 1000 }, (_, i) => next(false, 0, 0, seeded(i)));
    expect(Math.max(...draws)).toBeGreaterThan(FAILOVER_SPREAD_MS);
  });

  it("leaves a flapping station's step as it was, even at a node not yet tried", () => {
    expect(failoverMinMs(true, 1, 1000)).toBe(1000);
    const draws = Array.from({ length: 200 }, (_, i) => next(true, 0, 1, seeded(i)));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(500);
  });
});

describe("returning to an earlier node of the list (docs/mqtt.md#a-clustered-broker)", () => {
  it("waits between once and twice `failbackAfterMs`, spread over that time", () => {
    const holds = Array.from({ length: 1000 }, (_, i) => failbackHoldMs(10_000, 0, seeded(i)));
    expect(Math.min(...holds)).toBeGreaterThanOrEqual(10_000);
    expect(Math.max(...holds)).toBeLessThanOrEqual(20_000);
    expect(holds.filter((h) => h < 15_000).length).toBeGreaterThan(400);
    expect(holds.filter((h) => h >= 15_000).length).toBeGreaterThan(400);
  });

  it("doubles the wait for each return in a row that failed, up to an hour", () => {
    const half = () => 0.5;
    expect(failbackHoldMs(10_000, 1, half)).toBe(30_000);
    expect(failbackHoldMs(10_000, 3, half)).toBe(120_000);
    expect(failbackHoldMs(10_000, 40, half)).toBe(3_600_000);
  });

  it("checks every 2 s, or twice within a shorter wait", () => {
    expect(failbackProbeMs(10_000)).toBe(2000);
    expect(failbackProbeMs(1000)).toBe(500);
    expect(failbackProbeMs(10)).toBe(50);
  });

  it("returns to the first earlier address that has answered for the whole wait", () => {
    // on address 2; 0 answers since 9 s ago, 1 since 12 s ago: with 10 s, address 1
    expect(failbackTarget([1000, -2000], 2, 10_000, 10_000)).toBe(1);
    // later, 0 has answered long enough too: the earliest wins
    expect(failbackTarget([1000, -2000], 2, 11_000, 10_000)).toBe(0);
  });

  it("stays while no earlier address has answered long enough, and never picks a later one", () => {
    expect(failbackTarget([undefined, 5000], 2, 10_000, 10_000)).toBeUndefined();
    expect(failbackTarget([0, 0, 0], 0, 100_000, 10_000)).toBeUndefined();
    expect(failbackTarget([undefined, 0, 0], 1, 100_000, 10_000)).toBeUndefined();
  });
});
