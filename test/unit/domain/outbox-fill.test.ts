/** The outbox's fill against its count and byte bounds (src/domain/outbox-fill.ts; docs/limits.md). */
import { describe, expect, it } from "vitest";
import { bytesNearFull, mib, OUTBOX_NEAR_FULL, outboxFill } from "../../../src/domain/outbox-fill.js";

const MB = 1_000_000;

describe("the outbox's fill", () => {
  it("room below the near-full share of both bounds; without a byte bound the count decides alone", () => {
    expect(outboxFill({ undelivered: 79, limit: 100, undeliveredBytes: 0.79 * MB, limitBytes: MB })).toEqual({
      state: "room",
    });
    expect(outboxFill({ undelivered: 79, limit: 100, undeliveredBytes: 5 * MB })).toEqual({ state: "room" });
  });

  it("near full from the share of either bound, full at either bound", () => {
    expect(outboxFill({ undelivered: 80, limit: 100, undeliveredBytes: 0, limitBytes: MB })).toEqual({
      state: "near_full",
      bound: "count",
    });
    expect(
      outboxFill({ undelivered: 1, limit: 100, undeliveredBytes: OUTBOX_NEAR_FULL * MB, limitBytes: MB }),
    ).toEqual({
      state: "near_full",
      bound: "bytes",
    });
    expect(outboxFill({ undelivered: 1, limit: 100, undeliveredBytes: MB, limitBytes: MB })).toEqual({
      state: "full",
      bound: "bytes",
    });
  });

  it("full by one bound wins over near full by the other; the count first when both say the same", () => {
    expect(outboxFill({ undelivered: 85, limit: 100, undeliveredBytes: MB, limitBytes: MB })).toEqual({
      state: "full",
      bound: "bytes",
    });
    expect(outboxFill({ undelivered: 100, limit: 100, undeliveredBytes: 0.9 * MB, limitBytes: MB })).toEqual({
      state: "full",
      bound: "count",
    });
    expect(outboxFill({ undelivered: 90, limit: 100, undeliveredBytes: 0.9 * MB, limitBytes: MB })).toEqual({
      state: "near_full",
      bound: "count",
    });
  });

  it("the bytes are counted again only from the near-full share; MiB with one decimal", () => {
    expect(bytesNearFull(0.79 * MB, MB)).toBe(false);
    expect(bytesNearFull(0.8 * MB, MB)).toBe(true);
    expect(mib(3 * 2 ** 20 + 2 ** 19)).toBe(3.5);
    expect(mib(838_861)).toBe(0.8);
  });
});
