import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.load.js";
import { failure } from "../../support/failure.js";

const carrier = (carrierLabels: Record<string, unknown>) => ({
  printing: { mode: "station", carrierLabels },
});

describe("printing.carrierLabels", () => {
  it("defaults to fetching nothing, with a 10 s deadline, 5 MiB and no packing slip", () => {
    expect(parseConfig({}).printing.carrierLabels).toEqual({
      allowHosts: [],
      timeoutMs: 10_000,
      maxBytes: 5 * 1024 * 1024,
      allowHttp: false,
      allowLoopback: false,
      allowLinkLocal: false,
      packingSlip: false,
    });
    expect(parseConfig({ printing: { mode: "station" } }).printing.carrierLabels.allowHosts).toEqual([]);
  });

  it("takes hosts and wildcards from the file, and comma-separated from the variable", () => {
    const c = parseConfig(
      carrier({ allowHosts: ["labels.carrier.example", "*.cdn.example"], packingSlip: true }),
    );
    expect(c.printing.carrierLabels).toMatchObject({
      allowHosts: ["labels.carrier.example", "*.cdn.example"],
      packingSlip: true,
    });
    const env = parseConfig(
      {},
      {
        PPS_EDGE_PRINTING_CARRIER_LABELS_ALLOW_HOSTS: "a.example, *.b.example",
        PPS_EDGE_PRINTING_CARRIER_LABELS_TIMEOUT_MS: "3000",
      },
    );
    expect(env.printing.carrierLabels).toMatchObject({
      allowHosts: ["a.example", "*.b.example"],
      timeoutMs: 3000,
    });
  });

  it("refuses a URL or a pattern where a host belongs, bounds out of range and unknown keys, naming the key", () => {
    expect(
      failure(() => parseConfig(carrier({ allowHosts: ["https://labels.carrier.example/"] }))).paths,
    ).toEqual(["printing.carrierLabels.allowHosts.0"]);
    expect(failure(() => parseConfig(carrier({ allowHosts: ["labels.*.example"] }))).paths).toEqual([
      "printing.carrierLabels.allowHosts.0",
    ]);
    expect(failure(() => parseConfig(carrier({ timeoutMs: 10 }))).paths).toEqual([
      "printing.carrierLabels.timeoutMs",
    ]);
    expect(failure(() => parseConfig(carrier({ maxBytes: 0 }))).paths).toEqual([
      "printing.carrierLabels.maxBytes",
    ]);
    expect(failure(() => parseConfig(carrier({ allowHttp: "yes" }))).paths).toEqual([
      "printing.carrierLabels.allowHttp",
    ]);
    expect(failure(() => parseConfig(carrier({ hosts: [] }))).paths).toEqual([
      "printing.carrierLabels.hosts",
    ]);
  });
});
