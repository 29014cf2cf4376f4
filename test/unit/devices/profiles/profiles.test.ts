import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { firmwareProfileJsonSchema } from "../../../../src/devices/profiles/firmware-profile.schema.js";
import { loadProfiles } from "../../../../src/devices/profiles/load-profiles.js";
import { pointerResolves } from "../../../../src/devices/profiles/profile-checks.js";
import { parseProfileText } from "../../../../src/devices/profiles/validate-profile.js";
import { profilesDir } from "../../../support/devices/profiles.js";

const profileFiles = readdirSync(profilesDir).filter((f) => f.endsWith(".json"));

describe("firmware-profiles/", () => {
  it("holds the profiles the station file and the design doc name", () => {
    for (const id of [
      "honeywell-hidpos",
      "generic-wedge-us",
      "serial-scanner-cr",
      "atop-at500-ccb",
      "sortexx-ascii",
      "led485-046-modbus",
      "delta-as-ba-modbus",
      "modbus-di-16",
      "cups-thermal-4x6-pdf",
      "zebra-zpl-raw-203",
    ]) {
      expect(profileFiles).toContain(`${id}.json`);
    }
  });

  it.each(profileFiles)("%s validates", (file) => {
    const profile = parseProfileText(file, readFileSync(join(profilesDir, file), "utf8"));
    expect(`${profile.profileId}.json`).toBe(file);
    expect(Object.keys(profile.provenance).length).toBeGreaterThan(0);
  });

  it("loadProfiles returns every profile by id", async () => {
    const byId = await loadProfiles(profilesDir);
    expect([...byId.keys()].sort()).toEqual(profileFiles.map((f) => f.replace(/\.json$/, "")).sort());
    expect(byId.get("delta-as-ba-modbus")?.kind).toBe("bin-sensor");
    expect(byId.get("honeywell-hidpos")?.kind).toBe("scanner");
  });
});

describe("JSON Schema export", () => {
  it("is draft 2020-12 with one branch per kind", () => {
    const schema = firmwareProfileJsonSchema();
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const branches = (schema.oneOf ?? schema.anyOf) as Array<{
      properties: { kind: { const: string } };
      required: string[];
    }>;
    expect(branches.map((b) => b.properties.kind.const).sort()).toEqual(
      ["bin-sensor", "printer", "ptl-controller", "scanner"].sort(),
    );
    for (const b of branches) {
      expect(b.required).toEqual(
        expect.arrayContaining(["profileId", "profileVersion", "kind", "transport", "provenance"]),
      );
    }
  });
});

describe("pointerResolves", () => {
  const doc = { a: { "b/c": [0, null], "t~x": 1 } };
  it.each([
    ["/a", true],
    ["/a/b~1c/1", true],
    ["/a/t~0x", true],
    ["/a/b~1c/2", false],
    ["/a/missing", false],
    ["/a/b~1c/1/deeper", false],
  ])("%s -> %s", (pointer, want) => {
    expect(pointerResolves(doc, pointer)).toBe(want);
  });
});
