import { describe, expect, it } from "vitest";
import {
  emptyTally,
  sessionNotification,
  shiftCsv,
  summaryOf,
  tallied,
} from "../../../src/domain/session-summary.js";

const T0 = Date.UTC(2026, 10, 28, 6, 0, 0);
const S = 1000;

describe("session summary", () => {
  it("sums lines, units, exceptions by kind and the idle gaps of over a minute", () => {
    let t = emptyTally(T0);
    t = tallied(t, T0 + 30 * S, { lines: 1, units: 3, exceptions: [] });
    // a gap of 90 s: idle, whole
    t = tallied(t, T0 + 120 * S, { lines: 0, units: 0, exceptions: ["missing"] });
    t = tallied(t, T0 + 150 * S, { lines: 2, units: 2, exceptions: ["missing", "physically_damaged"] });
    const s = summaryOf({ seat: "front", operator: "ann", startedAt: T0, tally: t }, T0 + 400 * S, "idle");
    expect(s).toEqual({
      seat: "front",
      operator: "ann",
      startedAt: T0,
      endedAt: T0 + 400 * S,
      endedBy: "idle",
      lines: 3,
      units: 5,
      exceptions: { missing: 2, physically_damaged: 1 },
      // 90 s between inputs, and the 250 s from the last input to the end
      idleMs: 340 * S,
    });
    expect(sessionNotification(s)).toEqual({
      seat: "front",
      operator: "ann",
      started_at: "2026-11-28T06:00:00.000Z",
      ended_at: "2026-11-28T06:06:40.000Z",
      ended_by: "idle",
      lines: 3,
      units: 5,
      exceptions: { missing: 2, physically_damaged: 1 },
      idle_minutes: 5.7,
    });
  });

  it("writes one CSV row per session, quoting as RFC 4180 says", () => {
    const s = {
      seat: "front",
      operator: 'O"Neil, Ann',
      startedAt: T0,
      endedAt: T0 + 3_600_000,
      endedBy: "logout" as const,
      lines: 100,
      units: 250,
      exceptions: { item_missing: 1, missing: 2 },
      idleMs: 120_000,
    };
    expect(shiftCsv([s]).split("\r\n")).toEqual([
      "seat,operator,started_at,ended_at,ended_by,minutes,lines,units,exceptions,idle_minutes,lines_per_hour,units_per_hour",
      'front,"O""Neil, Ann",2026-11-28T06:00:00.000Z,2026-11-28T07:00:00.000Z,logout,60,100,250,item_missing=1;missing=2,2,100,250',
      "",
    ]);
  });
});
