/**
 * `printing.cupsServer`: the CUPS server the label printer's commands talk to (docs/hardware.md#cups-verdicts),
 * a host:port or a socket path; none means the system's default server.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.load.js";
import { failure } from "../../support/failure.js";

const cups = (cupsServer?: unknown) => ({
  printing: {
    mode: "station",
    printer: "cups",
    cupsQueue: "LABELS",
    ...(cupsServer === undefined ? {} : { cupsServer }),
  },
});

describe("printing.cupsServer", () => {
  it("takes a host:port, a socket path, or nothing (the system's server), from the file or the environment", () => {
    expect(parseConfig(cups()).printing.cupsServer).toBeUndefined();
    expect(parseConfig(cups("127.0.0.1:631")).printing.cupsServer).toBe("127.0.0.1:631");
    expect(parseConfig(cups("/run/cups/cups.sock")).printing.cupsServer).toBe("/run/cups/cups.sock");
    expect(
      parseConfig(cups(), { PPS_EDGE_PRINTING_CUPS_SERVER: "print.example:631" }).printing.cupsServer,
    ).toBe("print.example:631");
  });

  it("refuses a value with spaces, an empty one, a too long one and a number, naming the key", () => {
    for (const bad of ["print server:631", "", "x".repeat(256), 631]) {
      const f = failure(() => parseConfig(cups(bad)));
      expect(f.paths).toEqual(["printing.cupsServer"]);
      expect(f.message).toContain("printing.cupsServer");
    }
  });
});
