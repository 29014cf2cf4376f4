import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openPositions } from "../src/positions.js";

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("positions", () => {
  it("keep the delivered seq per station across a reopen", () => {
    dir = mkdtempSync(join(tmpdir(), "central-consumer-"));
    const file = join(dir, "state.db");
    const p = openPositions(file);
    p.save("dc1/1", 5);
    p.save("dc1/2", 9);
    p.save("dc1/1", 6);
    p.close();
    const again = openPositions(file);
    expect(again.all()).toEqual(
      new Map([
        ["dc1/1", 6],
        ["dc1/2", 9],
      ]),
    );
    again.close();
  });

  it("say which replica stored a station's position, so another one can take it over from there", () => {
    dir = mkdtempSync(join(tmpdir(), "central-consumer-"));
    const file = join(dir, "state.db");
    const a = openPositions(file);
    const b = openPositions(file);
    a.save("dc1/1", 5, "replica-a");
    expect(b.get("dc1/1")).toEqual({ seq: 5, owner: "replica-a" });
    b.save("dc1/1", 9, "replica-b");
    expect(a.get("dc1/1")).toEqual({ seq: 9, owner: "replica-b" });
    expect(a.get("dc1/2")).toBeUndefined();
    a.close();
    b.close();
  });
});
