import { describe, expect, it } from "vitest";
import { allocate, type LineDemand, type StockRow } from "../../../src/domain/allocation.js";

const line = (lineId: string, quantity: number, candidates: string[] = ["I1"]): LineDemand => ({
  lineId,
  candidates,
  quantity,
});
const row = (location: string, itemId: string, free: number): StockRow => ({ location, itemId, free });

describe("allocation", () => {
  it("reserves a whole line at one location when one covers it exactly", () => {
    expect(allocate([line("L1", 5)], [row("A", "I1", 3), row("B", "I1", 5), row("C", "I1", 9)])).toEqual({
      ok: true,
      reservations: [{ lineId: "L1", location: "B", itemId: "I1", quantity: 5 }],
    });
  });

  it("prefers the smallest location that covers the whole line", () => {
    const result = allocate([line("L1", 4)], [row("A", "I1", 9), row("B", "I1", 6), row("C", "I1", 3)]);
    expect(result).toEqual({
      ok: true,
      reservations: [{ lineId: "L1", location: "B", itemId: "I1", quantity: 4 }],
    });
  });

  it("counts every candidate item at a location towards covering the line", () => {
    const result = allocate(
      [line("L1", 5, ["I1", "I2"])],
      [row("A", "I1", 4), row("B", "I1", 2), row("B", "I2", 3), row("C", "I3", 50)],
    );
    expect(result).toEqual({
      ok: true,
      reservations: [
        { lineId: "L1", location: "B", itemId: "I2", quantity: 3 },
        { lineId: "L1", location: "B", itemId: "I1", quantity: 2 },
      ],
    });
  });

  it("splits over the fewest locations, finishing with the smallest that covers the rest", () => {
    const stock = [
      row("A", "I1", 4),
      row("B", "I1", 6),
      row("C", "I1", 3),
      row("D", "I1", 1),
      row("E", "I1", 2),
    ];
    expect(allocate([line("L1", 8)], stock)).toEqual({
      ok: true,
      reservations: [
        { lineId: "L1", location: "B", itemId: "I1", quantity: 6 },
        { lineId: "L1", location: "E", itemId: "I1", quantity: 2 },
      ],
    });
    expect(allocate([line("L1", 12)], stock)).toMatchObject({
      ok: true,
      reservations: [
        { location: "B", quantity: 6 },
        { location: "A", quantity: 4 },
        { location: "E", quantity: 2 },
      ],
    });
  });

  it("never books the same stock for two lines", () => {
    const result = allocate([line("L1", 3), line("L2", 3)], [row("A", "I1", 4), row("B", "I1", 2)]);
    expect(result).toEqual({
      ok: true,
      reservations: [
        { lineId: "L1", location: "A", itemId: "I1", quantity: 3 },
        { lineId: "L2", location: "B", itemId: "I1", quantity: 2 },
        { lineId: "L2", location: "A", itemId: "I1", quantity: 1 },
      ],
    });
  });

  it("is all or nothing: a short line fails the whole request and is named", () => {
    const result = allocate(
      [line("L1", 2), line("L2", 5, ["I2"]), line("L3", 99)],
      [row("A", "I1", 3), row("B", "I2", 4)],
    );
    expect(result).toEqual({
      ok: false,
      error: { lineId: "L2", reason: "short", requested: 5, available: 4 },
    });
  });

  it("counts what earlier lines took when naming the short line", () => {
    const result = allocate([line("L1", 3), line("L2", 3)], [row("A", "I1", 5)]);
    expect(result).toEqual({
      ok: false,
      error: { lineId: "L2", reason: "short", requested: 3, available: 2 },
    });
  });

  it("fails a line whose filters matched no item, or whose quantity is not a positive integer", () => {
    expect(allocate([line("L1", 1, [])], [row("A", "I1", 5)])).toMatchObject({
      ok: false,
      error: { lineId: "L1", reason: "no_candidates" },
    });
    for (const quantity of [0, -2, 1.5]) {
      expect(allocate([line("L1", quantity)], [row("A", "I1", 5)])).toMatchObject({
        ok: false,
        error: { reason: "invalid_quantity" },
      });
    }
  });

  it("ignores empty or negative stock and merges duplicate rows", () => {
    const result = allocate(
      [line("L1", 4)],
      [row("A", "I1", 0), row("B", "I1", -3), row("C", "I1", 2), row("C", "I1", 2)],
    );
    expect(result).toEqual({
      ok: true,
      reservations: [{ lineId: "L1", location: "C", itemId: "I1", quantity: 4 }],
    });
  });

  it("is deterministic whatever the order of the stock rows", () => {
    const stock = [row("B", "I1", 3), row("A", "I1", 3), row("C", "I2", 3), row("A", "I2", 1)];
    const lines = [line("L1", 5, ["I1", "I2"]), line("L2", 2, ["I2", "I1"])];
    const first = allocate(lines, stock);
    expect(allocate(lines, [...stock].reverse())).toEqual(first);
    expect(allocate(lines, [stock[2], stock[0], stock[3], stock[1]] as StockRow[])).toEqual(first);
    expect(first).toEqual({
      ok: true,
      reservations: [
        { lineId: "L1", location: "A", itemId: "I1", quantity: 3 },
        { lineId: "L1", location: "A", itemId: "I2", quantity: 1 },
        { lineId: "L1", location: "B", itemId: "I1", quantity: 1 },
        { lineId: "L2", location: "B", itemId: "I1", quantity: 2 },
      ],
    });
  });

  it("leaves its inputs as they were", () => {
    const stock = [row("A", "I1", 3)];
    allocate([line("L1", 3)], stock);
    expect(stock).toEqual([row("A", "I1", 3)]);
  });
});
