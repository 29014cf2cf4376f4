import { describe, expect, it } from "vitest";
import type { OpCall } from "../../../src/station/seat.types.js";
import { workOfCalls } from "../../../src/station/shift/work-of-calls.js";

const pick = (quantity: number): OpCall => ({
  op: "pick",
  input: { externalServiceRequestId: "P1", line: "P1-1", location: "S1", quantity },
});

describe("what an input's calls count for in a session", () => {
  it("a pick, a put and an audit line count one line each with the units they booked", () => {
    expect(
      workOfCalls([
        pick(3),
        { op: "put", input: { externalServiceRequestId: "U1", location: "S2", quantity: 2 } } as OpCall,
        {
          op: "auditCount",
          auditId: "A1",
          input: { audit_line_id: "A1-1", good_qty: 4, damaged_qty: 1, unscannable_qty: 1 },
        },
      ]),
    ).toEqual({ lines: 3, units: 11, exceptions: [] });
  });

  it("an exception report counts under its reason and adds no units; the rest is no work", () => {
    expect(
      workOfCalls([
        pick(2),
        {
          op: "pickException",
          input: { externalServiceRequestId: "P1", line: "P1-1", quantity: 1, reason: "physically_damaged" },
        },
        { op: "login", seat: "front", user: "ann" },
        { op: "binEmptied", binId: "1" },
        { op: "rackPresented", input: { msu: "M1", locations: ["S1"] } },
      ]),
    ).toEqual({ lines: 1, units: 2, exceptions: ["physically_damaged"] });
    expect(workOfCalls([])).toEqual({ lines: 0, units: 0, exceptions: [] });
  });
});
