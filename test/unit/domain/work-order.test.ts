import { describe, expect, it } from "vitest";
import {
  compareWork,
  isOverdue,
  isReleased,
  nextReleaseMs,
  orderWork,
  type PickWork,
  parseSimplePriority,
  type SimplePriority,
} from "../../../src/domain/work-order.js";

const NOW = 1_700_000_000_000;
const MIN = 60_000;

let seq = 0;
const work = (
  id: string,
  priority: SimplePriority = "normal",
  pickBeforeMs: number | null = null,
  pickAfterMs: number | null = null,
): PickWork => ({ id, sequence: ++seq, priority, pickBeforeMs, pickAfterMs });
const ids = (list: PickWork[]) => list.map((w) => w.id);

describe("work order", () => {
  it("orders by simple_priority: critical, high, normal, low", () => {
    const list = [work("low", "low"), work("normal"), work("critical", "critical"), work("high", "high")];
    expect(ids(orderWork(list, NOW))).toEqual(["critical", "high", "normal", "low"]);
  });

  it("then by pick_before_time, earliest first and none last", () => {
    const list = [
      work("none"),
      work("late", "normal", NOW + 60 * MIN),
      work("early", "normal", NOW + 5 * MIN),
      work("overdue", "normal", NOW - MIN),
    ];
    expect(ids(orderWork(list, NOW))).toEqual(["overdue", "early", "late", "none"]);
  });

  it("priority outranks the deadline", () => {
    const list = [work("normal-urgent", "normal", NOW + MIN), work("high-relaxed", "high", NOW + 600 * MIN)];
    expect(ids(orderWork(list, NOW))).toEqual(["high-relaxed", "normal-urgent"]);
  });

  it("then by creation order", () => {
    const a = work("a", "high", NOW);
    const b = work("b", "high", NOW);
    const c = work("c", "high", NOW);
    expect(ids(orderWork([c, a, b], NOW))).toEqual(["a", "b", "c"]);
    expect(compareWork(a, b)).toBeLessThan(0);
    expect(compareWork(b, a)).toBeGreaterThan(0);
  });

  it("is overdue from pick_before_time on, except critical", () => {
    expect(isOverdue(work("due", "high", NOW), NOW - 1)).toBe(false);
    expect(isOverdue(work("due", "high", NOW), NOW)).toBe(true);
    expect(isOverdue(work("none", "low"), NOW)).toBe(false);
    expect(isOverdue(work("critical", "critical", NOW - MIN), NOW)).toBe(false);
  });

  it("holds work back until pick_after_time, except critical", () => {
    const held = work("held", "high", null, NOW + MIN);
    const heldCritical = work("critical", "critical", null, NOW + MIN);
    const due = work("due", "low", null, NOW);
    const past = work("past", "normal", null, NOW - MIN);
    expect(isReleased(held, NOW)).toBe(false);
    expect(isReleased(held, NOW + MIN)).toBe(true);
    expect(isReleased(due, NOW)).toBe(true);
    expect(ids(orderWork([held, heldCritical, due, past], NOW))).toEqual(["critical", "past", "due"]);
    expect(ids(orderWork([held, heldCritical, due, past], NOW + MIN))).toEqual([
      "critical",
      "held",
      "past",
      "due",
    ]);
  });

  it("leaves its input as it was", () => {
    const list = [work("b", "low"), work("a", "high")];
    orderWork(list, NOW);
    expect(ids(list)).toEqual(["b", "a"]);
  });

  it("tells when the next held-back work is released", () => {
    const list = [
      work("later", "normal", null, NOW + 10 * MIN),
      work("soon", "normal", null, NOW + 2 * MIN),
      work("critical", "critical", null, NOW + MIN),
      work("free"),
    ];
    expect(nextReleaseMs(list, NOW)).toBe(NOW + 2 * MIN);
    expect(nextReleaseMs(list, NOW + 10 * MIN)).toBeNull();
  });
});

describe("simple_priority", () => {
  it("defaults to normal", () => {
    expect(parseSimplePriority(undefined)).toEqual({ ok: true, priority: "normal" });
    expect(parseSimplePriority(null)).toEqual({ ok: true, priority: "normal" });
  });

  it("accepts the spec's values", () => {
    for (const p of ["critical", "high", "normal", "low"]) {
      expect(parseSimplePriority(p)).toEqual({ ok: true, priority: p });
    }
  });

  it("refuses anything else", () => {
    for (const p of ["urgent", "HIGH", "", 1]) {
      expect(parseSimplePriority(p)).toMatchObject({ ok: false, error: { code: "validation_failed" } });
    }
  });
});
