import { describe, expect, it } from "vitest";
import { idleDecision, secondsLeft } from "../../../src/domain/idle-logout.js";

const T0 = 1_800_000_000_000;
const base = {
  operator: "ann",
  lastActivity: T0,
  workInHand: false,
  idleLogoutMs: 300_000,
  warningMs: 60_000,
};

describe("idle logout decision", () => {
  it("leaves an active operator alone until the idle time is up", () => {
    expect(idleDecision({ ...base, now: T0 + 299_999 })).toEqual({ kind: "active", checkAt: T0 + 300_000 });
  });

  it("signs out an idle operator with no work in hand at once", () => {
    expect(idleDecision({ ...base, now: T0 + 300_000 })).toEqual({ kind: "sign_out" });
  });

  it("warns an idle operator with work in hand first, then signs them out", () => {
    const held = { ...base, workInHand: true };
    expect(idleDecision({ ...held, now: T0 + 300_000 })).toEqual({ kind: "warn", logoutAt: T0 + 360_000 });
    expect(idleDecision({ ...held, now: T0 + 359_999 })).toEqual({ kind: "warn", logoutAt: T0 + 360_000 });
    expect(idleDecision({ ...held, now: T0 + 360_000 })).toEqual({ kind: "sign_out" });
  });

  it("does nothing with nobody logged in or the idle logout off", () => {
    expect(idleDecision({ ...base, operator: null, now: T0 + 900_000 })).toEqual({
      kind: "active",
      checkAt: null,
    });
    expect(idleDecision({ ...base, idleLogoutMs: 0, now: T0 + 900_000 })).toEqual({
      kind: "active",
      checkAt: null,
    });
  });

  it("counts the warning down in whole seconds", () => {
    expect(secondsLeft(T0 + 60_000, T0)).toBe(60);
    expect(secondsLeft(T0 + 60_000, T0 + 59_001)).toBe(1);
    expect(secondsLeft(T0 + 60_000, T0 + 61_000)).toBe(0);
  });
});
