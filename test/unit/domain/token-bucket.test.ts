import { describe, expect, it } from "vitest";
import { rateHold, tokenBuckets } from "../../../src/domain/token-bucket.js";

describe("token buckets", () => {
  it("lets a burst through, then one per 1/rate seconds, each key on its own", () => {
    const b = tokenBuckets({ perSecond: 2, burst: 3 });
    const at = 1_000_000;
    expect([1, 2, 3].map(() => b.take("u", at).ok)).toEqual([true, true, true]);
    expect(b.take("u", at)).toEqual({ ok: false, retryAfterMs: 500 });
    expect(b.take("v", at).ok).toBe(true);
    expect(b.take("u", at + 499).ok).toBe(false);
    expect(b.take("u", at + 1000).ok).toBe(true);
  });

  it("forgets keys whose bucket is full again", () => {
    const b = tokenBuckets({ perSecond: 10, burst: 1 });
    for (let i = 0; i < 200; i++) b.take(`k${i}`, i * 1000);
    expect(b.size).toBeLessThan(130);
  });
});

describe("rate hold", () => {
  it("answers nothing while the bucket holds enough, then the 429 rate_limited naming the rate", () => {
    const hold = rateHold({ perSecond: 2, burst: 2 }, "this user's costly routes");
    const at = 1_000_000;
    expect(hold.take("u", at)).toBeUndefined();
    expect(hold.take("u", at, 1)).toBeUndefined();
    const refusal = hold.take("u", at);
    expect(refusal?.code).toBe("rate_limited");
    expect(refusal?.message).toBe("more than 2 requests per second to this user's costly routes");
    expect(refusal?.details).toEqual({ retryAfterSeconds: 1 });
    expect(hold.take("u", at + 500)).toBeUndefined();
  });
});
