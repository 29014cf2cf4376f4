/**
 * The configuration read from its YAML file on disk; the values and their checks are the unit
 * project's, on parsed input.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/config.load.js";
import { failure } from "../../support/failure.js";
import { tempDir } from "../../support/temp-dirs.js";

describe("config file", () => {
  it("reads a YAML file and reports an unreadable or invalid one", () => {
    const dir = tempDir();
    const file = join(dir, "pps-edge.yaml");
    writeFileSync(file, "site: north\nhttp:\n  port: 9090\n");
    const c = loadConfig(file, {});
    expect(c.site).toBe("north");
    expect(c.http.port).toBe(9090);
    writeFileSync(file, "site: [unclosed\n");
    expect(failure(() => loadConfig(file, {})).message).toContain("not valid YAML");
    expect(failure(() => loadConfig(join(dir, "missing.yaml"), {})).message).toContain("cannot be read");
    writeFileSync(file, "- a list\n");
    expect(failure(() => loadConfig(file, {})).message).toContain("mapping");
  });
});
