/**
 * Reconnect delays (docs/mqtt.md#backoff-and-reconnects): full jitter bounded by `maxMs` while the broker
 * refuses the station, so a fleet is back within that of the broker's return and spread over it,
 * whatever connection each station lost; equal jitter growing to `flappingMaxMs` only for connections
 * that the broker accepts and that keep breaking soon after.
 */
import { describe, expect, it } from "vitest";
import {
  type AttemptEnd,
  type BackoffOptions,
  backoffDelay,
  FAILOVER_SPREAD_MS,
  FIRST_ATTEMPT,
  failbackHoldMs,
  failbackProbeMs,
  failbackTarget,
  failoverMinMs,
  nextAttempt,
  nextServer,
  type ReconnectState,
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

const refused: AttemptEnd = { kind: "refused" };
/** A connection the broker accepted, lost after `upMs` (10 s or more: stable). */
const lost = (upMs: number): AttemptEnd => ({ kind: "lost", upMs });
const stable = lost(60_000);
const times = (n: number, end: AttemptEnd): AttemptEnd[] => Array(n).fill(end);

/** Each attempt's address and delay, the end before it fed to `nextAttempt` as src/sync/connection.ts does. */
function walk(
  ends: readonly AttemptEnd[],
  count: number,
  random: () => number,
  from: ReconnectState = FIRST_ATTEMPT,
): { state: ReconnectState; steps: { server: number; delayMs: number }[] } {
  let state = from;
  const steps = ends.map((end) => {
    const next = nextAttempt(state, end, count, opts, random);
    state = next.state;
    return { server: state.server, delayMs: next.delayMs };
  });
  return { state, steps };
}

/** Each attempt's address and the range its delay is drawn from: `server: low-high` (ms). */
function ranges(ends: readonly AttemptEnd[], count = 1, from?: ReconnectState): string[] {
  const low = walk(ends, count, () => 0, from).steps;
  const high = walk(ends, count, () => 1, from).steps;
  return low.map((l, i) => `${l.server}: ${l.delayMs}-${high[i]?.delayMs}`);
}

/**
 * A fleet whose connections broke at 0 (each station's `before`, then a loss after `upMs`) while the
 * broker is away until `outageMs`: each station's attempts are refused at once until then. Returns, per
 * station, how long after the broker's return its first attempt came.
 */
function fleetLag(
  stations: number,
  outageMs: number,
  random: () => number,
  upMs = 60_000,
  before: readonly AttemptEnd[] = [],
): number[] {
  return Array.from({ length: stations }, () => {
    let { state } = walk(before, 1, random);
    let next = nextAttempt(state, lost(upMs), 1, opts, random);
    let at = next.delayMs;
    while (at < outageMs) {
      state = next.state;
      next = nextAttempt(state, refused, 1, opts, random);
      at += next.delayMs;
    }
    return at - outageMs;
  });
}

describe("the delay of one step", () => {
  it.each([
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [3, 4000],
    [40, 4000],
  ])("full jitter: attempt %i waits between 0 and %i ms", (attempt, high) => {
    expect(backoffDelay({ attempt, flaps: 0 }, opts, () => 0)).toBe(0);
    expect(backoffDelay({ attempt, flaps: 0 }, opts, () => 1)).toBe(high);
  });

  it.each([
    [0, 500, 1000],
    [1, 1000, 2000],
    [3, 4000, 8000],
    [6, 30_000, 60_000],
    [20, 30_000, 60_000],
  ])("equal jitter: attempt %i waits between %i and %i ms", (attempt, low, high) => {
    expect(backoffDelay({ attempt, flaps: 1 }, opts, () => 0)).toBe(low);
    expect(backoffDelay({ attempt, flaps: 1 }, opts, () => 1)).toBe(high);
  });

  it("equal jitter never stops below reconnectMaxMs's ceiling when reconnectFlappingMaxMs is set lower", () => {
    const low = { ...opts, maxMs: 10_000, flappingMaxMs: 2_000 };
    expect(backoffDelay({ attempt: 10, flaps: 3 }, low, () => 1)).toBe(10_000);
  });
});

describe("the next attempt after each sequence (one broker)", () => {
  it.each<{ what: string; ends: AttemptEnd[]; want: string[] }>([
    {
      what: "a stable connection lost, then refusals: from reconnectMinMs up to reconnectMaxMs",
      ends: [stable, ...times(4, refused)],
      want: ["0: 0-1000", "0: 0-2000", "0: 0-4000", "0: 0-4000", "0: 0-4000"],
    },
    {
      what: "a short connection (a restart 3 s after the connect), then refusals: the same",
      ends: [lost(3000), ...times(6, refused)],
      want: ["0: 0-1000", "0: 0-2000", "0: 0-4000", "0: 0-4000", "0: 0-4000", "0: 0-4000", "0: 0-4000"],
    },
    {
      what: "a connection lost at once (0 s), then refusals: the same",
      ends: [lost(0), ...times(3, refused)],
      want: ["0: 0-1000", "0: 0-2000", "0: 0-4000", "0: 0-4000"],
    },
    {
      what: "two restarts in a row, each a few seconds after the connect: refusals stay within reconnectMaxMs",
      ends: [lost(3000), ...times(3, refused), lost(3000), ...times(3, refused)],
      want: [
        ...["0: 0-1000", "0: 0-2000", "0: 0-4000", "0: 0-4000"],
        ...["0: 500-1000", "0: 0-2000", "0: 0-4000", "0: 0-4000"],
      ],
    },
    {
      what: "an earlier outage, then a short connection and refusals: the earlier step does not carry over",
      ends: [stable, ...times(8, refused), lost(3000), ...times(3, refused)],
      want: [
        ...["0: 0-1000", "0: 0-2000", ...Array(7).fill("0: 0-4000")],
        ...["0: 0-1000", "0: 0-2000", "0: 0-4000", "0: 0-4000"],
      ],
    },
    {
      what: "accepted then kicked, again and again: equal jitter growing to reconnectFlappingMaxMs",
      ends: times(10, lost(0)),
      want: [
        ...["0: 0-1000", "0: 500-1000", "0: 1000-2000", "0: 2000-4000", "0: 4000-8000"],
        ...["0: 8000-16000", "0: 16000-32000", "0: 30000-60000", "0: 30000-60000", "0: 30000-60000"],
      ],
    },
    {
      what: "a kicked loop whose broker refuses meanwhile: refusals neither grow nor reset the flapping step",
      ends: [...times(5, lost(0)), ...times(3, refused), lost(0)],
      want: [
        ...["0: 0-1000", "0: 500-1000", "0: 1000-2000", "0: 2000-4000", "0: 4000-8000"],
        ...["0: 0-2000", "0: 0-4000", "0: 0-4000", "0: 8000-16000"],
      ],
    },
    {
      what: "a kicked loop, then a stable connection: the flapping step starts again",
      ends: [...times(6, lost(0)), lost(10_000), lost(0), lost(0)],
      want: [
        ...["0: 0-1000", "0: 500-1000", "0: 1000-2000", "0: 2000-4000", "0: 4000-8000", "0: 8000-16000"],
        ...["0: 0-1000", "0: 0-1000", "0: 500-1000"],
      ],
    },
    {
      what: "a connection of 9.9 s is short, one of 10 s stable",
      ends: [lost(9_999), lost(9_999), lost(10_000), lost(9_999)],
      want: ["0: 0-1000", "0: 500-1000", "0: 0-1000", "0: 0-1000"],
    },
  ])("$what", ({ ends, want }) => {
    expect(ranges(ends)).toEqual(want);
  });
});

describe("the next attempt after each sequence (three nodes: mqtt.failoverUrls)", () => {
  it.each<{ what: string; ends: AttemptEnd[]; want: string[] }>([
    {
      what: "a node dies: the others at once, the step grows once per round",
      ends: [stable, ...times(6, refused)],
      want: ["1: 0-250", "2: 0-250", "0: 0-1000", "1: 0-250", "2: 0-250", "0: 0-2000", "1: 0-250"],
    },
    {
      what: "a node dies a few seconds after the station came to it: the next node at once all the same",
      ends: [lost(3000), refused, refused, refused],
      want: ["1: 0-250", "2: 0-250", "0: 0-1000", "1: 0-250"],
    },
    {
      what: "a rolling restart, each node a few seconds after the station came to it: the next node at once",
      ends: [stable, lost(3000), lost(3000), lost(3000)],
      want: ["1: 0-250", "2: 0-250", "0: 0-250", "1: 0-250"],
    },
    {
      what: "a rolling restart whose next node closes the station at its SUBSCRIBE (RabbitMQ): at once",
      ends: [stable, lost(0), lost(4000), refused],
      want: ["1: 0-250", "2: 0-250", "0: 0-250", "1: 0-250"],
    },
    {
      what: "a rolling restart twice in a row: the second pass's retries stay under 2 s each",
      ends: [stable, ...times(5, lost(4000))],
      want: ["1: 0-250", "2: 0-250", "0: 0-250", "1: 0-250", "2: 500-1000", "0: 1000-2000"],
    },
    {
      what: "a rolling restart, then a stable connection: the next rolling restart starts afresh",
      ends: [stable, lost(4000), lost(4000), stable, lost(4000), lost(4000)],
      want: ["1: 0-250", "2: 0-250", "0: 0-250", "1: 0-250", "2: 0-250", "0: 0-250"],
    },
    {
      what: "the whole cluster away after an earlier outage: the earlier step does not carry over",
      ends: [stable, ...times(9, refused), lost(3000), ...times(3, refused)],
      want: [
        ...["1: 0-250", "2: 0-250", "0: 0-1000", "1: 0-250", "2: 0-250", "0: 0-2000"],
        ...["1: 0-250", "2: 0-250", "0: 0-4000", "1: 0-250"],
        // lost at node 1: a new round there, its step from reconnectMinMs again
        ...["2: 0-250", "0: 0-250", "1: 0-1000", "2: 0-250"],
      ],
    },
    {
      what: "accepted then kicked at every node (a duplicate client id): once round, it backs off at every node",
      ends: times(10, lost(0)),
      want: [
        ...["1: 0-250", "2: 0-250", "0: 0-250", "1: 500-1000", "2: 1000-2000"],
        ...["0: 2000-4000", "1: 4000-8000", "2: 8000-16000", "0: 16000-32000", "1: 30000-60000"],
      ],
    },
  ])("$what", ({ ends, want }) => {
    expect(ranges(ends, 3)).toEqual(want);
  });
});

describe("a rolling restart (docs/mqtt.md#backoff-and-reconnects)", () => {
  it.each([2, 3, 5])(
    "of %i nodes, each stopped soon after the station came to it: every next node within 250 ms",
    (count) => {
      // its own node first (a stable connection), then each node it fled to, a few seconds later
      const ends = [stable, ...times(count - 1, lost(4000))];
      const { steps } = walk(ends, count, () => 1);
      expect(steps.map((x) => x.delayMs)).toEqual(ends.map(() => FAILOVER_SPREAD_MS));
      expect(steps.map((x) => x.server)).toEqual(ends.map((_, i) => (i + 1) % count));
    },
  );

  it("one broker restarted twice soon after connects still waits out a flap's delay: a loop on one node", () => {
    expect(ranges([lost(3000), lost(3000)])).toEqual(["0: 0-1000", "0: 500-1000"]);
  });
});

describe("failing back to an earlier node (docs/mqtt.md#a-clustered-broker)", () => {
  /** On node 1 of 3 after node 0 died, with a history of flaps and refusals. */
  const onNode1: ReconnectState = { server: 1, roundStart: 1, refused: 2, flaps: 4 };

  it("a planned return goes to that node at once, as a new round with nothing carried", () => {
    const next = nextAttempt(onNode1, { kind: "left", to: 0 }, 3, opts, () => 1);
    expect(next).toEqual({ state: { server: 0, roundStart: 0, refused: 0, flaps: 0 }, delayMs: 0 });
  });

  it.each<{ what: string; ends: AttemptEnd[]; want: string[] }>([
    {
      what: "the node returned to refuses: the next node at once",
      ends: [{ kind: "left", to: 0 }, refused, refused, refused],
      want: ["0: 0-0", "1: 0-250", "2: 0-250", "0: 0-1000"],
    },
    {
      what: "the node returned to drops the station soon after: the next node at once",
      ends: [{ kind: "left", to: 0 }, lost(2000), refused],
      want: ["0: 0-0", "1: 0-250", "2: 0-250"],
    },
    {
      what: "returned, stable, then lost: as any stable loss",
      ends: [{ kind: "left", to: 0 }, stable, refused, refused],
      want: ["0: 0-0", "1: 0-250", "2: 0-250", "0: 0-1000"],
    },
  ])("$what", ({ ends, want }) => {
    expect(ranges(ends, 3, onNode1)).toEqual(want);
  });
});

describe("a fleet while its broker is away (full jitter)", () => {
  it("the first retry after a lost connection is spread evenly over [0, reconnectMinMs]", () => {
    const random = seeded(1);
    const delays = Array.from(
      { length: 10_000 },
      () => nextAttempt(FIRST_ATTEMPT, stable, 1, opts, random).delayMs,
    );
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

  it.each<[string, number, AttemptEnd[]]>([
    ["connected 3 s before", 3000, []],
    ["connected 0 s before", 0, []],
    ["connected 3 s before, after an earlier outage", 3000, [stable, ...times(8, refused)]],
    [
      "connected 3 s before, after an earlier restart 3 s after a connect",
      3000,
      [lost(3000), ...times(5, refused)],
    ],
  ])(
    "a restart %s: a fleet of 1,000 is back within reconnectMaxMs of the broker's return",
    (_, upMs, before) => {
      for (const outageMs of [1_000, 5_000, 20_000]) {
        const lag = fleetLag(1000, outageMs, seeded(outageMs + upMs), upMs, before);
        expect(Math.max(...lag)).toBeLessThanOrEqual(opts.maxMs);
      }
    },
  );
});

describe("a loop of accepted-then-kicked connections (equal jitter)", () => {
  it("slows down for good, past reconnectMaxMs: a dozen flaps take minutes", () => {
    const { steps } = walk(times(12, lost(500)), 1, seeded(7));
    const delays = steps.map((x) => x.delayMs);
    // minutes, not the seconds a broker that bans flapping clients counts (EMQX: 15 in a minute)
    expect(delays.reduce((a, b) => a + b, 0)).toBeGreaterThan(3 * 60_000);
    expect(delays.slice(7).every((d) => d >= 30_000)).toBe(true);
  });

  it("jitter spreads a fleet's reconnects", () => {
    const state: ReconnectState = { ...FIRST_ATTEMPT, flaps: 5 };
    const delays = new Set(Array.from({ length: 50 }, () => nextAttempt(state, lost(0), 1, opts).delayMs));
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
  it("comes within a quarter of a second at a node not yet tried, spread over that time", () => {
    const draws = Array.from(
      { length: 1000 },
      (_, i) => nextAttempt(FIRST_ATTEMPT, stable, 3, opts, seeded(i)).delayMs,
    );
    expect(Math.max(...draws)).toBeLessThanOrEqual(FAILOVER_SPREAD_MS);
    expect(draws.filter((d) => d < FAILOVER_SPREAD_MS / 2).length).toBeGreaterThan(400);
    expect(draws.filter((d) => d >= FAILOVER_SPREAD_MS / 2).length).toBeGreaterThan(400);
  });

  it("keeps reconnectMinMs for the same broker again, and when it is smaller", () => {
    expect(failoverMinMs(false, 1000)).toBe(1000);
    expect(failoverMinMs(true, 100)).toBe(100);
    const draws = Array.from(
      { length: 1000 },
      (_, i) => nextAttempt(FIRST_ATTEMPT, stable, 1, opts, seeded(i)).delayMs,
    );
    expect(Math.max(...draws)).toBeGreaterThan(FAILOVER_SPREAD_MS);
  });

  it("leaves a flapping station's step as it was, even at a node not yet tried", () => {
    // dropped soon after connect at each of the three nodes: the next drop is a loop's
    const flapping: ReconnectState = { ...FIRST_ATTEMPT, flaps: 3 };
    const draws = Array.from({ length: 200 }, (_, i) => nextAttempt(flapping, lost(0), 3, opts, seeded(i)));
    expect(draws.every((d) => d.state.server === 1)).toBe(true);
    expect(Math.min(...draws.map((d) => d.delayMs))).toBeGreaterThanOrEqual(500);
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
