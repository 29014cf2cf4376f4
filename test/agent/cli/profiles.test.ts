/**
 * `pps-edge profiles`: every registered driver with what it supports, every profile of the folder with
 * the driver that reads it; a new controller model of a known protocol is one more file and is listed
 * with its driver; a bad profile is refused naming the file.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { profilesCommand } from "../../../src/app/cli/profiles.command.js";
import { main } from "../../../src/app/main.js";
import { drivers } from "../../../src/devices/drivers/registry.js";
import { profilesDir, readProfileJson } from "../../support/devices/profiles.js";
import { tempDir } from "../../support/temp-dirs.js";

async function run(dir?: string): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await profilesCommand(dir, { out: (s) => lines.push(s) });
  return { code, lines };
}

/** The line of the table whose first column is `id`. */
const row = (lines: string[], id: string) => lines.find((l) => l.trim().split(/\s+/)[0] === id) ?? "";

describe("pps-edge profiles", () => {
  it("lists every driver with its kinds, transports, protocol and features", async () => {
    const { code, lines } = await run();
    expect(code).toBe(0);
    expect(lines[0]).toBe(`Device drivers (${drivers.length}):`);
    for (const d of drivers) expect(row(lines, d.name)).not.toBe("");
    expect(row(lines, "atop-ccb")).toMatch(
      /ptl-controller\s+tcp,serial\s+codec atop-ccb\s+colours; blink; quantity/,
    );
    expect(row(lines, "sortexx")).toMatch(/serial\s+codec ascii-fixed\s+colours; blink; confirm button/);
    expect(row(lines, "led485")).toContain("quantity display");
    expect(row(lines, "hid-pos")).toMatch(/scanner\s+hid\s+mode hid-pos/);
    expect(row(lines, "sim")).toContain("any profile, or none");
  });

  it("lists every shipped profile with the driver that reads it", async () => {
    const { lines } = await run();
    const files = readdirSync(profilesDir).filter((f) => f.endsWith(".json"));
    expect(lines).toContain(`Firmware profiles in ${profilesDir} (${files.length}):`);
    const driverOf = (id: string) => row(lines, id).trim().split(/\s+/)[3];
    expect(
      Object.fromEntries(files.map((f) => f.replace(/\.json$/, "")).map((id) => [id, driverOf(id)])),
    ).toEqual({
      "atop-at500-ccb": "atop-ccb",
      "cups-thermal-4x6-pdf": "label-printer",
      "delta-as-ba-modbus": "modbus-sensor",
      "generic-wedge-us": "hid-keyboard",
      "honeywell-hidpos": "hid-pos",
      "led485-046-modbus": "led485",
      "modbus-di-16": "modbus-sensor",
      "newland-fm430-hidpos": "hid-pos",
      "serial-scanner-cr": "serial-scanner",
      "sortexx-ascii": "sortexx",
      "zebra-zpl-raw-203": "label-printer",
    });
    expect(row(lines, "sortexx-ascii")).toContain(
      "colours green,yellow,red; blink fast,medium,slow; no quantity",
    );
  });

  it("takes a new controller model of a known protocol from its profile file alone", async () => {
    const dir = tempDir("pps-profiles-");
    const model = readProfileJson("sortexx-ascii.json");
    model.profileId = "acme-ptl-9";
    model.model = "ACME PTL-9 (SorTexx frames)";
    writeFileSync(join(dir, "acme-ptl-9.json"), JSON.stringify(model));
    const custom = readProfileJson("atop-at500-ccb.json");
    custom.profileId = "nda-ptl";
    custom.ptl.codec = "custom";
    writeFileSync(join(dir, "nda-ptl.json"), JSON.stringify(custom));
    const { lines } = await run(dir);
    expect(row(lines, "acme-ptl-9")).toMatch(/ptl-controller\s+ascii-fixed\s+sortexx\s+ThermoTex Nagel ACME/);
    expect(row(lines, "nda-ptl")).toContain("none (simulated only)");
  });

  it("is a command of pps-edge; a bad profile is refused naming the file", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdin: Readable.from([]),
      out: (s: string) => out.push(s),
      err: (s: string) => err.push(s),
      env: { PPS_EDGE_DATA_DIR: tempDir() },
    };
    expect(await main(["profiles"], io)).toBe(0);
    expect(out[0]).toMatch(/^Device drivers/);

    const dir = tempDir("pps-profiles-");
    writeFileSync(join(dir, "broken.json"), "{ not json");
    expect(await main(["profiles", dir], io)).toBe(1);
    expect(err.join("\n")).toContain(join(dir, "broken.json"));
  });
});
