import { describe, expect, it } from "vitest";
import { decide, FRESH, type RetryPolicy, retryAfterMs } from "../../../src/domain/webhook-delivery.js";

const POLICY: RetryPolicy = { minMs: 1000, maxMs: 3_600_000, horizonMs: 72 * 3_600_000 };
const T = Date.parse("2026-11-27T00:00:00Z");
const top = () => 1; // the random draw at its top: the delay is the whole step

describe("the webhook retry decision (pure)", () => {
  it("2xx is delivered; 1xx, 3xx, 4xx and 5xx are retried", () => {
    for (const status of [200, 201, 202, 204, 299])
      expect(decide(FRESH, { kind: "answered", status }, T, POLICY).kind).toBe("delivered");
    for (const status of [100, 301, 302, 304, 400, 401, 404, 409, 429, 500, 502, 503])
      expect([status, decide(FRESH, { kind: "answered", status }, T, POLICY).kind]).toEqual([
        status,
        "retry",
      ]);
  });

  it("410 disables at once, even on the first attempt", () => {
    expect(decide(FRESH, { kind: "answered", status: 410 }, T, POLICY)).toEqual({
      kind: "disable",
      reason: "gone",
      head: { attempts: 1, failingSince: T },
    });
  });

  it("backs off exponentially with full jitter up to the maximum, counting from the first failure", () => {
    let head = FRESH;
    const delays: number[] = [];
    for (let i = 0; i < 16; i++) {
      const d = decide(head, { kind: "timeout" }, T + i, POLICY, top);
      if (d.kind !== "retry") throw new Error(d.kind);
      delays.push(d.delayMs);
      head = d.head;
    }
    expect(delays.slice(0, 5)).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(delays.at(-1)).toBe(3_600_000);
    expect(head).toEqual({ attempts: 16, failingSince: T });
    // the draw spreads each delay over [0, step]
    const low = decide(FRESH, { kind: "network", error: "ECONNREFUSED" }, T, POLICY, () => 0);
    expect(low).toMatchObject({ kind: "retry", delayMs: 0 });
  });

  it("honours a longer Retry-After, and never waits past the horizon", () => {
    const asked = decide(FRESH, { kind: "answered", status: 503, retryAfterMs: 120_000 }, T, POLICY, top);
    expect(asked).toMatchObject({ kind: "retry", delayMs: 120_000 });
    const shorter = decide(FRESH, { kind: "answered", status: 429, retryAfterMs: 10 }, T, POLICY, top);
    expect(shorter).toMatchObject({ kind: "retry", delayMs: 1000 });
    const head = { attempts: 20, failingSince: T };
    const late = T + POLICY.horizonMs - 5000;
    expect(decide(head, { kind: "timeout" }, late, POLICY, top)).toMatchObject({
      kind: "retry",
      delayMs: 5000,
    });
  });

  it("disables at the horizon, counted from the first failure of the same notification", () => {
    const head = { attempts: 30, failingSince: T };
    expect(decide(head, { kind: "answered", status: 500 }, T + POLICY.horizonMs, POLICY)).toEqual({
      kind: "disable",
      reason: "horizon",
      head: { attempts: 31, failingSince: T },
    });
    // a success just before the horizon is a success
    expect(decide(head, { kind: "answered", status: 200 }, T + POLICY.horizonMs, POLICY).kind).toBe(
      "delivered",
    );
  });

  it("reads Retry-After as seconds or an HTTP date, capped at a day; nonsense is ignored", () => {
    expect(retryAfterMs("120", T)).toBe(120_000);
    expect(retryAfterMs(new Date(T + 30_000).toUTCString(), T)).toBe(30_000);
    expect(retryAfterMs(new Date(T - 30_000).toUTCString(), T)).toBe(0);
    expect(retryAfterMs("999999999", T)).toBe(24 * 3_600_000);
    expect(retryAfterMs("soon", T)).toBeUndefined();
    expect(retryAfterMs(undefined, T)).toBeUndefined();
  });
});
