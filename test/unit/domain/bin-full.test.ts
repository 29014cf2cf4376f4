import { describe, expect, it } from "vitest";
import { type BinState, closeFullBin, type OrderInBin } from "../../../src/domain/bin-full.js";

const bins = (...states: BinState[]) => states.map((state, i) => ({ id: String(i + 1), state }));
const order = (externalId: string, picked: number, more: Partial<OrderInBin> = {}): OrderInBin => ({
  externalId,
  open: true,
  picked,
  closedBins: [],
  ...more,
});

describe("bin full, box full", () => {
  it("closes the bin, moves the order into the first free bin and records the units left in the closed one", () => {
    const result = closeFullBin({
      bin: "1",
      order: "ORDER-1",
      bins: bins("pick", "complete", "empty", "empty"),
      orders: [order("ORDER-1", 4)],
    });
    expect(result).toEqual({
      ok: true,
      closed: "1",
      moves: [{ order: "ORDER-1", to: "3", closedBins: [{ pps_bin_id: "1", units: 4 }] }],
    });
  });

  it("refuses in words when no bin is free, and names nothing to change", () => {
    const result = closeFullBin({
      bin: "1",
      order: "ORDER-1",
      bins: bins("pick", "pick", "complete", "put"),
      orders: [order("ORDER-1", 2)],
    });
    expect(result).toEqual({ ok: false, reason: "no_free_bin", message: "no free bin: empty a bin first" });
  });

  it("moves every open order of a bin holding several, the reported one first; done orders stay", () => {
    const result = closeFullBin({
      bin: "2",
      order: "ORDER-B",
      bins: bins("empty", "pick", "empty", "empty"),
      orders: [order("ORDER-A", 3), order("ORDER-DONE", 5, { open: false }), order("ORDER-B", 1)],
    });
    expect(result.ok && result.moves).toEqual([
      { order: "ORDER-B", to: "1", closedBins: [{ pps_bin_id: "2", units: 1 }] },
      { order: "ORDER-A", to: "3", closedBins: [{ pps_bin_id: "2", units: 3 }] },
    ]);
  });

  it("refuses a bin holding several open orders when fewer bins are free than orders go on", () => {
    const result = closeFullBin({
      bin: "2",
      order: "ORDER-B",
      bins: bins("empty", "pick", "complete"),
      orders: [order("ORDER-A", 3), order("ORDER-B", 1)],
    });
    expect(result).toEqual({
      ok: false,
      reason: "no_free_bin",
      message: "no free bin: empty a bin first (2 orders go on, 1 free)",
    });
  });

  it("at the last unit the order still goes on: the new bin takes it, the closed one keeps what was picked", () => {
    // 5 of 6 picked; the last unit is lit when the bin is full
    const result = closeFullBin({
      bin: "1",
      order: "ORDER-1",
      bins: bins("pick", "empty"),
      orders: [order("ORDER-1", 5)],
    });
    expect(result.ok && result.moves).toEqual([
      { order: "ORDER-1", to: "2", closedBins: [{ pps_bin_id: "1", units: 5 }] },
    ]);
  });

  it("a second full bin records only the units since the first; a pick+pack box gets its own OLPN", () => {
    const result = closeFullBin({
      bin: "3",
      order: "PACK-1",
      bins: bins("complete", "empty", "pick"),
      orders: [
        order("PACK-1", 7, {
          olpn: "BOX-9",
          closedBins: [{ pps_bin_id: "1", units: 4, olpn: "BOX-9-1" }],
        }),
      ],
    });
    expect(result.ok && result.moves).toEqual([
      {
        order: "PACK-1",
        to: "2",
        closedBins: [
          { pps_bin_id: "1", units: 4, olpn: "BOX-9-1" },
          { pps_bin_id: "3", units: 3, olpn: "BOX-9-2" },
        ],
      },
    ]);
  });

  it("refuses an order that is not open in the bin", () => {
    const closed = order("ORDER-1", 2, { open: false });
    for (const orders of [[], [closed]]) {
      const result = closeFullBin({ bin: "1", order: "ORDER-1", bins: bins("pick", "empty"), orders });
      expect(result).toMatchObject({ ok: false, reason: "not_in_bin" });
    }
  });
});
