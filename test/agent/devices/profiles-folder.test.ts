/**
 * `loadProfiles` on a folder on disk: which files it reads, and a bad one refused naming the file. What
 * makes a profile bad is the unit project's, on parsed JSON.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { loadProfiles } from "../../../src/devices/profiles/load-profiles.js";
import { type AppError, isAppError } from "../../../src/domain/errors.js";
import { type Mutation, readProfileJson } from "../../support/devices/profiles.js";
import { tempDir } from "../../support/temp-dirs.js";

describe("loadProfiles on a folder", () => {
  let dir = "";
  beforeEach(() => {
    dir = tempDir("pps-profiles-");
  });

  const copy = (name: string, as = name, edit?: Mutation) => {
    const json = readProfileJson(name);
    edit?.(json);
    writeFileSync(join(dir, as), JSON.stringify(json));
  };

  it("reads only *.json at the top level", async () => {
    copy("sortexx-ascii.json");
    writeFileSync(join(dir, "README.md"), "# notes");
    mkdirSync(join(dir, "fixtures"));
    writeFileSync(join(dir, "fixtures", "x.json"), "not even json");
    const byId = await loadProfiles(dir);
    expect([...byId.keys()]).toEqual(["sortexx-ascii"]);
  });

  it("names the file, path and reason of a bad profile", async () => {
    copy("sortexx-ascii.json");
    copy("delta-as-ba-modbus.json", undefined, (p) => {
      p.sensor.channels[0].activeWhen = 2;
    });
    const err = await loadProfiles(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isAppError(err)).toBe(true);
    const app = err as AppError;
    expect(app.details?.file).toBe(join(dir, "delta-as-ba-modbus.json"));
    expect(app.errors[0]?.path).toBe("sensor.channels.0.activeWhen");
    expect(app.message).toContain("delta-as-ba-modbus.json");
    expect(app.message).toContain("sensor.channels.0.activeWhen");
  });

  it("refuses a profile whose id is not its file name", async () => {
    copy("sortexx-ascii.json", "ptl.json");
    const err = (await loadProfiles(dir).catch((e: unknown) => e)) as AppError;
    expect(err.code).toBe("validation_failed");
    expect(err.errors[0]?.path).toBe("profileId");
    expect(err.details?.file).toBe(join(dir, "ptl.json"));
  });

  it("returns an empty map for an empty folder", async () => {
    expect((await loadProfiles(dir)).size).toBe(0);
  });
});
