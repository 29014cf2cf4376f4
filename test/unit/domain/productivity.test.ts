import { describe, expect, it } from "vitest";
import {
  PRODUCTIVITY_WINDOW_MS,
  productivityOf,
  standingOf,
  type WorkDone,
  withinWindow,
} from "../../../src/domain/productivity.js";

const MIN = 60_000;
const T0 = Date.UTC(2026, 10, 28, 6, 0, 0);
const targets = { linesPerHour: 120, unitsPerHour: 300 };
const work = (minute: number, lines: number, units: number): WorkDone => ({
  at: T0 + minute * MIN,
  lines,
  units,
});

describe("productivity", () => {
  it("gives no figure in the session's first minute", () => {
    const p = productivityOf({
      since: T0,
      now: T0 + 30_000,
      totals: { lines: 1, units: 2 },
      recent: [work(0.25, 1, 2)],
      targets,
    });
    expect(p.recent).toBeNull();
    expect(p.session).toBeNull();
    expect(p.standing).toEqual({ lines: null, units: null });
  });

  it("counts a short session over its own length", () => {
    // 10 lines, 30 units in 5 minutes: 120 lines and 360 units an hour
    const p = productivityOf({
      since: T0,
      now: T0 + 5 * MIN,
      totals: { lines: 10, units: 30 },
      recent: [work(1, 4, 12), work(4, 6, 18)],
      targets,
    });
    expect(p.recent).toEqual({ linesPerHour: 120, unitsPerHour: 360 });
    expect(p.session).toEqual({ linesPerHour: 120, unitsPerHour: 360 });
    expect(p.standing).toEqual({ lines: "at", units: "above" });
  });

  it("counts only the last 15 minutes for the recent figure, the whole session for the other", () => {
    // an hour in: 100 lines before the window, 20 lines (40 units) in its last 15 minutes
    const p = productivityOf({
      since: T0,
      now: T0 + 60 * MIN,
      totals: { lines: 120, units: 240 },
      recent: [work(30, 100, 200), work(46, 10, 20), work(59, 10, 20)],
      targets,
    });
    expect(p.recent).toEqual({ linesPerHour: 80, unitsPerHour: 160 });
    expect(p.session).toEqual({ linesPerHour: 120, unitsPerHour: 240 });
    expect(p.standing).toEqual({ lines: "below", units: "below" });
  });

  it("leaves out work stamped after now", () => {
    const p = productivityOf({
      since: T0,
      now: T0 + 15 * MIN,
      totals: { lines: 30, units: 30 },
      recent: [work(10, 30, 30), work(16, 100, 100)],
      targets,
    });
    expect(p.recent).toEqual({ linesPerHour: 120, unitsPerHour: 120 });
  });

  it("says nothing of a figure without a target", () => {
    const p = productivityOf({
      since: T0,
      now: T0 + 10 * MIN,
      totals: { lines: 5, units: 5 },
      recent: [work(5, 5, 5)],
      targets: { linesPerHour: null, unitsPerHour: 10 },
    });
    expect(p.standing).toEqual({ lines: null, units: "above" });
  });

  it("puts a figure within 5 % of its target at the target", () => {
    expect(standingOf(95, 100)).toBe("at");
    expect(standingOf(105, 100)).toBe("at");
    expect(standingOf(94, 100)).toBe("below");
    expect(standingOf(106, 100)).toBe("above");
    expect(standingOf(50, 0)).toBeNull();
    expect(standingOf(50, null)).toBeNull();
  });

  it("keeps only the work within the window", () => {
    const now = T0 + 40 * MIN;
    const all = [work(10, 1, 1), work(25, 2, 2), work(30, 3, 3)];
    expect(withinWindow(all, now)).toEqual([work(25, 2, 2), work(30, 3, 3)]);
    expect(withinWindow(all, T0 + 60 * MIN)).toEqual([]);
    expect(withinWindow(all, T0 + 20 * MIN)).toEqual(all);
    expect(PRODUCTIVITY_WINDOW_MS).toBe(15 * MIN);
  });
});
