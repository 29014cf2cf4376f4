import { describe, expect, it } from "vitest";
import { retainedLedger } from "../../../src/sync/broker-retained.js";
import { requestSummary } from "../../../src/sync/retained-messages.js";

describe("the retained ledger", () => {
  it("keeps topics within the count and bytes, replaces in place, and clears a topic it cannot keep", () => {
    const l = retainedLedger({ maxMessages: 2, maxBytes: 100 });
    expect(l.store("a", 40)).toEqual({ kept: true, clear: false });
    expect(l.store("b", 40)).toEqual({ kept: true, clear: false });
    // a third topic: over the count
    expect(l.store("c", 1)).toEqual({ kept: false, clear: false });
    // a replacement that fits
    expect(l.store("a", 60)).toEqual({ kept: true, clear: false });
    expect(l.bytes).toBe(100);
    // a replacement over the bytes: not kept, and the old one is cleared rather than left stale
    expect(l.store("b", 41)).toEqual({ kept: false, clear: true });
    expect([l.messages, l.bytes]).toEqual([1, 60]);
    // an empty payload clears and gives the place back
    expect(l.store("a", 0)).toEqual({ kept: true, clear: false });
    expect([l.messages, l.bytes]).toEqual([0, 0]);
    expect(l.store("c", 100)).toEqual({ kept: true, clear: false });
  });
});

describe("a request's retained summary", () => {
  it("keeps the plain fields, leaves out lists, objects and long texts, and says it is cut", () => {
    const summary = requestSummary(
      {
        externalServiceRequestId: "P-1",
        type: "PICK",
        status: "CREATED",
        priority: null,
        serviceRequests: [{ a: 1 }],
        attributes: { x: 1 },
        note: "n".repeat(300),
      },
      50_000,
      16_384,
    );
    expect(summary).toEqual({
      externalServiceRequestId: "P-1",
      type: "PICK",
      status: "CREATED",
      priority: null,
      stateTruncated: { bytes: 50_000, limit: 16_384 },
    });
  });
});
