/**
 * Durable writes (src/durable-file.ts): the file appears whole under its name, with its mode, no
 * temporary file is left beside it, an existing file is replaced in one step, and the leftovers of an
 * interrupted write or backup are found and removed while every other file stays.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  removeLeftovers,
  temporaryName,
  writeFileDurably,
  writeFileDurablyAsync,
} from "../../../src/durable-file.js";
import { tempDir } from "../../support/temp-dirs.js";

describe("durable file writes", () => {
  it("writes the whole file under its name with its mode, and leaves no temporary file", () => {
    const dir = tempDir();
    const file = join(dir, "keys.json");
    writeFileDurably(file, '{"a":1}\n', 0o600);
    expect(readFileSync(file, "utf8")).toBe('{"a":1}\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["keys.json"]);
  });

  it("replaces an existing file (an empty one left by a power cut included)", () => {
    const dir = tempDir();
    const file = join(dir, "keys.json");
    writeFileSync(file, "");
    writeFileDurably(file, "new");
    expect(readFileSync(file, "utf8")).toBe("new");
    expect(readdirSync(dir)).toEqual(["keys.json"]);
  });

  it("writes bytes as they are", () => {
    const dir = tempDir();
    const file = join(dir, "label.pdf");
    writeFileDurably(file, Uint8Array.from([0x25, 0x50, 0x44, 0x46, 0]), 0o640);
    expect([...readFileSync(file)]).toEqual([0x25, 0x50, 0x44, 0x46, 0]);
  });

  it("writes asynchronously the same way", async () => {
    const dir = tempDir();
    const file = join(dir, "inventory-1.csv");
    await writeFileDurablyAsync(file, "a,b\n");
    expect(readFileSync(file, "utf8")).toBe("a,b\n");
    expect(readdirSync(dir)).toEqual(["inventory-1.csv"]);
  });

  it("fails without leaving a temporary file when the folder is gone", () => {
    const dir = join(tempDir(), "missing");
    expect(() => writeFileDurably(join(dir, "x.json"), "x")).toThrow(/ENOENT/);
    expect(existsSync(dir)).toBe(false);
  });

  it("removes temporary files and a backup's partial copy with its side files, nothing else", () => {
    const dir = tempDir();
    const names = [
      ".screen-keys.json.4242.tmp",
      "pps-edge-20261127T010000.000Z.db.partial",
      "pps-edge-20261127T010000.000Z.db.partial-journal",
      "pps-edge-20261127T010000.000Z.db.partial-wal",
      "pps-edge-20261127T000000.000Z.db",
      "by-hand.db",
      "notes.tmp",
    ];
    for (const n of names) writeFileSync(join(dir, n), "x");
    const removed = removeLeftovers(dir, [".partial"]).map((p) => p.slice(dir.length + 1));
    expect(removed.sort()).toEqual(names.slice(0, 4).sort());
    expect(readdirSync(dir).sort()).toEqual(["by-hand.db", "notes.tmp", "pps-edge-20261127T000000.000Z.db"]);
    expect(temporaryName(join(dir, "a.json"), 7)).toBe(join(dir, ".a.json.7.tmp"));
  });

  it("finds nothing to remove in a folder that does not exist", () => {
    expect(removeLeftovers(join(tempDir(), "none"), [".partial"])).toEqual([]);
  });
});
