import { describe, expect, it } from "vitest";
import { failureDelayMs, LOGIN_POLICY, LoginThrottle } from "../../../src/domain/login-throttle.js";

const MIN = 60_000;
const T0 = Date.parse("2026-11-21T10:00:00.000Z");

function failTimes(t: LoginThrottle, n: number, user: string, address: string, now = T0) {
  let locked = false;
  for (let i = 0; i < n; i++) locked = t.fail(user, address, now);
  return locked;
}

describe("login throttle (docs/security.md#login-policy)", () => {
  it("has the documented numbers", () => {
    expect(LOGIN_POLICY).toMatchObject({
      pairLimit: 5,
      addressLimit: 20,
      windowMs: 15 * MIN,
      lockMs: 15 * MIN,
    });
  });

  it("locks a user name from one address after 5 failures, with the seconds left", () => {
    const t = new LoginThrottle();
    expect(failTimes(t, 4, "alice", "10.0.0.9")).toBe(false);
    expect(t.check("alice", "10.0.0.9", T0)).toEqual({ allowed: true });
    expect(t.fail("alice", "10.0.0.9", T0)).toBe(true);
    expect(t.check("alice", "10.0.0.9", T0)).toEqual({ allowed: false, retryAfterSeconds: 900 });
    expect(t.check("alice", "10.0.0.9", T0 + 10 * MIN + 500)).toEqual({
      allowed: false,
      retryAfterSeconds: 300,
    });
  });

  it("leaves the same user name free from another address", () => {
    const t = new LoginThrottle();
    failTimes(t, 50, "alice", "10.0.0.9");
    expect(t.check("alice", "10.0.0.7", T0)).toEqual({ allowed: true });
    expect(t.check("bob", "10.0.0.7", T0)).toEqual({ allowed: true });
  });

  it("locks an address after 20 failures across user names, for every user name", () => {
    const t = new LoginThrottle();
    for (let i = 0; i < 19; i++) expect(t.fail(`user${i}`, "10.0.0.9", T0)).toBe(false);
    expect(t.check("carol", "10.0.0.9", T0).allowed).toBe(true);
    expect(t.fail("user19", "10.0.0.9", T0)).toBe(true);
    expect(t.check("carol", "10.0.0.9", T0)).toEqual({ allowed: false, retryAfterSeconds: 900 });
    expect(t.check("carol", "10.0.0.7", T0).allowed).toBe(true);
  });

  it("counts a failure against the address only when asked", () => {
    const t = new LoginThrottle();
    for (let i = 0; i < 19; i++) expect(t.failAddress("10.0.0.9", T0)).toBe(false);
    expect(t.check("alice", "10.0.0.9", T0).allowed).toBe(true);
    expect(t.failAddress("10.0.0.9", T0)).toBe(true);
    expect(t.check("alice", "10.0.0.9", T0).allowed).toBe(false);
  });

  it("unlocks after the lock time and counts afresh", () => {
    const t = new LoginThrottle();
    failTimes(t, 5, "alice", "10.0.0.9");
    const later = T0 + 15 * MIN;
    expect(t.check("alice", "10.0.0.9", later)).toEqual({ allowed: true });
    expect(failTimes(t, 4, "alice", "10.0.0.9", later)).toBe(false);
    expect(t.check("alice", "10.0.0.9", later).allowed).toBe(true);
  });

  it("forgets failures older than the window", () => {
    const t = new LoginThrottle();
    failTimes(t, 4, "alice", "10.0.0.9");
    expect(t.fail("alice", "10.0.0.9", T0 + 15 * MIN)).toBe(false);
    expect(t.check("alice", "10.0.0.9", T0 + 15 * MIN).allowed).toBe(true);
  });

  it("a success resets the pair", () => {
    const t = new LoginThrottle();
    failTimes(t, 4, "alice", "10.0.0.9");
    t.succeed("alice", "10.0.0.9");
    expect(failTimes(t, 4, "alice", "10.0.0.9")).toBe(false);
    expect(t.check("alice", "10.0.0.9", T0).allowed).toBe(true);
  });

  it("keeps at most maxEntries counters, dropping expired ones first, then the oldest", () => {
    const t = new LoginThrottle({ ...LOGIN_POLICY, maxEntries: 10 });
    failTimes(t, 5, "alice", "10.0.0.9"); // two counters, the pair locked
    for (let i = 0; i < 100; i++) t.fail(`u${i}`, `10.1.0.${i}`, T0 + 20 * MIN + i);
    expect(t.size).toBeLessThanOrEqual(10);
    const u = new LoginThrottle({ ...LOGIN_POLICY, maxEntries: 4 });
    failTimes(u, 5, "alice", "10.0.0.9");
    u.fail("bob", "10.0.0.8", T0 + 20 * MIN); // alice's counters expired: they go, not bob's
    u.fail("carol", "10.0.0.7", T0 + 20 * MIN);
    expect(u.size).toBe(4);
    expect(u.check("alice", "10.0.0.9", T0 + 20 * MIN).allowed).toBe(true);
  });
});

describe("login delay before the lockout (docs/security.md#login-policy)", () => {
  it("has the documented numbers", () => {
    expect(LOGIN_POLICY).toMatchObject({
      pairDelayFrom: 3,
      addressDelayFrom: 10,
      delayMs: 1000,
      maxDelayMs: 4000,
    });
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => failureDelayMs(LOGIN_POLICY, n, 3))).toEqual([
      0, 0, 1000, 2000, 4000, 4000, 4000,
    ]);
  });

  it("answers a pair's first two failures at once, then 1 s, 2 s, 4 s; the 5th also locks", () => {
    const t = new LoginThrottle();
    const outcomes = [1, 2, 3, 4, 5].map(() => t.failure("alice", "10.0.0.9", T0));
    expect(outcomes).toEqual([
      { locked: false, delayMs: 0 },
      { locked: false, delayMs: 0 },
      { locked: false, delayMs: 1000 },
      { locked: false, delayMs: 2000 },
      { locked: "pair", delayMs: 4000 },
    ]);
  });

  it("delays an address from its 10th failure across user names; the 20th locks it", () => {
    const t = new LoginThrottle();
    const delays = Array.from({ length: 20 }, (_, i) => t.failure(`user${i}`, "10.0.0.9", T0));
    expect(delays.slice(0, 9).every((o) => o.delayMs === 0)).toBe(true);
    expect(delays.slice(9, 12).map((o) => o.delayMs)).toEqual([1000, 2000, 4000]);
    expect(delays[19]).toEqual({ locked: "address", delayMs: 4000 });
    expect(t.addressFailure("10.0.0.8", T0)).toEqual({ locked: false, delayMs: 0 });
  });

  it("does not delay the real user at another address, nor after a success", () => {
    const t = new LoginThrottle();
    for (let i = 0; i < 4; i++) t.failure("alice", "10.0.0.9", T0);
    expect(t.failure("alice", "10.0.0.7", T0).delayMs).toBe(0);
    t.succeed("alice", "10.0.0.7");
    t.succeed("alice", "10.0.0.9");
    expect(t.failure("alice", "10.0.0.9", T0).delayMs).toBe(0);
  });

  it("starts the delays afresh after the window", () => {
    const t = new LoginThrottle();
    for (let i = 0; i < 4; i++) t.failure("alice", "10.0.0.9", T0);
    expect(t.failure("alice", "10.0.0.9", T0 + 15 * MIN).delayMs).toBe(0);
  });
});
