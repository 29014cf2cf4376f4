import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fsyncDir,
  mountPowerCut,
  type PowerCutMount,
  powerCutUnavailable,
} from "../../support/powercut/mount.mjs";

/** test/support/powercut/powercut_fs.py: what a cut keeps and what it drops. */
const unavailable = powerCutUnavailable();

/** Writes a file and fsyncs it (its data durable; its name only once its folder is fsynced). */
function writeSynced(file: string, text: string) {
  const fd = openSync(file, "w");
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

describe("the power-cut file system", () => {
  let fs: PowerCutMount;
  beforeAll(async () => {
    // part of what `npm run setup` installs: without it this fails rather than passing unseen
    expect(unavailable).toBeNull();
    fs = await mountPowerCut();
  });
  afterAll(async () => {
    await fs?.unmount();
  });
  const at = (name: string) => join(fs.dir, name);

  it("keeps fsynced data through a cut and drops what was written after it", () => {
    writeSynced(at("data"), "durable");
    fsyncDir(fs.dir);
    const fd = openSync(at("data"), "a");
    writeSync(fd, " and more");
    closeSync(fd);
    expect(readFileSync(at("data"), "utf8")).toBe("durable and more"); // reads see unsynced data
    fs.cut();
    expect(readFileSync(at("data"), "utf8")).toBe("durable");
    expect(readFileSync(join(fs.backing, "data"), "utf8")).toBe("durable");
  });

  it("drops a written file that was never fsynced, with its name", () => {
    writeFileSync(at("unsynced"), "gone");
    fsyncDir(fs.dir);
    expect(readFileSync(at("unsynced"), "utf8")).toBe("gone");
    fs.cut();
    expect(readFileSync(at("unsynced"), "utf8")).toBe(""); // the name was made durable, not the data
  });

  it("drops a created file whose folder was not fsynced, even with its data fsynced", () => {
    writeSynced(at("created"), "data");
    expect(existsSync(at("created"))).toBe(true);
    fs.cut();
    expect(existsSync(at("created"))).toBe(false);
  });

  it("undoes a rename not followed by an fsync of its folder", () => {
    writeSynced(at("config.json"), "old");
    fsyncDir(fs.dir);
    writeSynced(at("config.json.tmp"), "new");
    renameSync(at("config.json.tmp"), at("config.json"));
    expect(readFileSync(at("config.json"), "utf8")).toBe("new");
    fs.cut();
    expect(readFileSync(at("config.json"), "utf8")).toBe("old");
    expect(existsSync(at("config.json.tmp"))).toBe(false);
  });

  it("keeps a rename once its folder is fsynced, with the data fsynced before it", () => {
    writeSynced(at("config.json"), "old");
    fsyncDir(fs.dir);
    writeSynced(at("config.json.tmp"), "new");
    renameSync(at("config.json.tmp"), at("config.json"));
    fsyncDir(fs.dir);
    fs.cut();
    expect(readFileSync(at("config.json"), "utf8")).toBe("new");
    expect(existsSync(at("config.json.tmp"))).toBe(false);
  });

  it("keeps a file in a new folder only when both folders were fsynced", async () => {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(at("sub"));
    writeSynced(at("sub/file"), "x");
    fsyncDir(at("sub"));
    fs.cut();
    expect(existsSync(at("sub"))).toBe(false); // the parent did not record the folder
    mkdirSync(at("sub"));
    writeSynced(at("sub/file"), "x");
    fsyncDir(at("sub"));
    fsyncDir(fs.dir);
    fs.cut();
    expect(readFileSync(at("sub/file"), "utf8")).toBe("x");
    expect(fs.counts().cuts).toBeGreaterThanOrEqual(6);
  });
});
