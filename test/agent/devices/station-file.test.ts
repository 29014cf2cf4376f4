/**
 * The station file read from disk: a file that cannot be read, and one written out and loaded with the
 * shipped profiles. Its content's checks are the unit project's, on parsed input.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { DEFAULT_BINS, DEFAULT_SEATS } from "../../../src/config/config.schema.js";
import { loadStation } from "../../../src/devices/station-file/station-file.js";
import { good } from "../../support/devices/station-fixture.js";
import { tempDir } from "../../support/temp-dirs.js";

describe("station file on disk", () => {
  it("refuses a file that cannot be read, naming it", async () => {
    await expect(
      loadStation({ file: "/nonexistent/station.yaml", seats: DEFAULT_SEATS, bins: DEFAULT_BINS }),
    ).rejects.toThrow(/station file \/nonexistent\/station\.yaml: \(root\): cannot be read/);
  });

  it("loads a file from disk with the shipped profiles", async () => {
    const file = join(tempDir("pps-station-"), "station.yaml");
    writeFileSync(file, stringify(good()));
    const loaded = await loadStation({ file, seats: DEFAULT_SEATS, bins: DEFAULT_BINS });
    expect(loaded.source).toBe(file);
    expect(loaded.definition.devices).toHaveLength(6);
  });
});
