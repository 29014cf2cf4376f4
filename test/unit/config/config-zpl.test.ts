import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.load.js";
import { failure } from "../../support/failure.js";

describe("printing.printer zpl (docs/hardware.md#zpl-labels)", () => {
  it("takes the printer's host, with the raw port and the profile's timings as defaults", () => {
    const c = parseConfig({ printing: { mode: "station", printer: "zpl", zpl: { host: "zebra-3.local" } } });
    expect(c.printing.zpl).toEqual({
      host: "zebra-3.local",
      port: 9100,
      statusIntervalMs: 2000,
      statusTimeoutMs: 2000,
      jobTimeoutMs: 30_000,
    });
  });

  it("takes the printer from PPS_EDGE_ variables too", () => {
    const c = parseConfig(
      {},
      {
        PPS_EDGE_PRINTING_PRINTER: "zpl",
        PPS_EDGE_PRINTING_ZPL_HOST: "10.0.0.9",
        PPS_EDGE_PRINTING_ZPL_PORT: "9101",
      },
    );
    expect(c.printing.zpl).toMatchObject({ host: "10.0.0.9", port: 9101, statusTimeoutMs: 2000 });
  });

  it("a zpl printer without a host is refused, naming printing.zpl.host", () => {
    for (const printing of [{ printer: "zpl" }, { printer: "zpl", zpl: { port: 9100 } }]) {
      const f = failure(() => parseConfig({ printing }));
      expect(f.paths).toEqual(["printing.zpl.host"]);
      expect(f.message).toContain("printer 'zpl' needs the printer's host");
    }
  });

  it("refuses a port or a timing out of range, naming the key", () => {
    expect(failure(() => parseConfig({ printing: { zpl: { host: "z", port: 70000 } } })).paths).toEqual([
      "printing.zpl.port",
    ]);
    expect(
      failure(() => parseConfig({ printing: { zpl: { host: "z", statusTimeoutMs: 10 } } })).paths,
    ).toEqual(["printing.zpl.statusTimeoutMs"]);
    expect(
      failure(() => parseConfig({ printing: { zpl: { host: "z", font: "E:A^XZ.TTF" } } })).paths,
    ).toEqual(["printing.zpl.font"]);
    expect(failure(() => parseConfig({ printing: { zpl: { host: "z", colour: 1 } } })).paths).toEqual([
      "printing.zpl.colour",
    ]);
  });
});
