import { describe, expect, it } from "vitest";
import { ENV_PREFIX, envSegment, leafPaths } from "../../../src/config/config.env.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { configSchema } from "../../../src/config/config.schema.js";
import { codes, doc, tableRows } from "../../support/readme.js";

/** Keys whose default docs/configuration.md describes in words, because it is derived at start. */
const DERIVED = new Set(["http.publicUrl", "devices.profilesDir", "mqtt.clientId", "printing.dir"]);

const rows = tableRows(doc("docs/configuration.md").split("Example `pps-edge.yaml`")[0] as string).map(
  ([key = "", variable = "", fallback = ""]) => ({ key: codes(key)[0] ?? key, variable, fallback }),
);

function valueAt(config: unknown, key: string): unknown {
  return key.split(".").reduce<unknown>((node, seg) => (node as Record<string, unknown>)?.[seg], config);
}

function shown(value: unknown): string {
  return Array.isArray(value) ? value.join(",") : String(value);
}

describe("docs/configuration.md: the configuration table", () => {
  it("lists every configuration key, and only those", () => {
    const keys = leafPaths(configSchema).map((p) => p.join("."));
    expect(rows.map((r) => r.key).sort()).toEqual(keys.sort());
  });

  it("names each key's environment variable as the loader reads it", () => {
    for (const r of rows) {
      const expected = ENV_PREFIX + r.key.split(".").map(envSegment).join("_");
      expect([r.key, r.variable]).toEqual([r.key, `\`${expected}\``]);
    }
  });

  it("states each default the code applies", () => {
    const defaults = parseConfig({});
    let compared = 0;
    for (const r of rows) {
      if (DERIVED.has(r.key)) continue;
      const value = valueAt(defaults, r.key);
      if (r.fallback === "—" || r.fallback === "generated") {
        expect([r.key, value]).toEqual([r.key, undefined]);
      } else if (r.fallback === "none") {
        expect([r.key, value]).toEqual([r.key, []]);
      } else {
        expect([r.key, codes(r.fallback)]).toEqual([r.key, [shown(value)]]);
      }
      compared++;
    }
    expect(compared).toBe(rows.length - DERIVED.size);
  });
});
