import { describe, expect, it } from "vitest";
import { connectionTable } from "../../../src/domain/connection-table.js";

describe("connection table", () => {
  it("gives each address its own places, refuses past them, and takes places back", () => {
    const t = connectionTable(2);
    expect([t.take("a"), t.take("a"), t.take("a")]).toEqual([true, true, false]);
    expect(t.take("b")).toBe(true);
    expect(t.count("a")).toBe(2);
    t.release("a");
    expect(t.take("a")).toBe(true);
    t.release("b");
    t.release("b"); // never below zero
    expect(t.count("b")).toBe(0);
    expect([t.take("b"), t.take("b"), t.take("b")]).toEqual([true, true, false]);
  });

  it("takes a place only under a lower limit when the caller holds the address to fewer", () => {
    const t = connectionTable(64);
    expect([t.take("a", 2), t.take("a", 2), t.take("a", 2)]).toEqual([true, true, false]);
    expect(t.take("a")).toBe(true);
    // a limit above the table's own counts as the table's
    const small = connectionTable(1);
    expect([small.take("b", 8), small.take("b", 8)]).toEqual([true, false]);
  });
});
