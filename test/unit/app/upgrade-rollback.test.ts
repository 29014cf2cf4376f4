/**
 * The upgrade guard's record as `pps-edge status` reads it (src/app/cli/upgrade-rollback.ts,
 * docs/operations.md#self-healing-upgrade): the record of a rollback, and nothing for a missing or
 * unreadable file.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  readUpgradeRollback,
  UPGRADE_ROLLBACK_FILE,
  upgradeRollbackLine,
} from "../../../src/app/cli/upgrade-rollback.js";

const dir = mkdtempSync(join(tmpdir(), "pps-edge-rollback-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the upgrade rollback record", () => {
  it("is read and said in one line", () => {
    const record = {
      from: "0.1.1-1",
      to: "0.1.0-1",
      at: "2026-11-28T21:00:05Z",
      reason: "pps-edge 0.1.1-1 was not ready within 60 s after the upgrade from 0.1.0-1 started it",
      backup: "/var/lib/pps-edge/backups/pps-edge-20261128T205900Z.db",
    };
    writeFileSync(join(dir, UPGRADE_ROLLBACK_FILE), `${JSON.stringify(record)}\n`);
    const read = readUpgradeRollback(dir);
    expect(read).toEqual(record);
    expect(upgradeRollbackLine(record)).toBe(
      "upgrade rolled back at 2026-11-28T21:00:05Z: pps-edge 0.1.1-1 was not ready within 60 s after the upgrade from 0.1.0-1 started it; running 0.1.0-1 again, database from /var/lib/pps-edge/backups/pps-edge-20261128T205900Z.db",
    );
  });

  it("is nothing when the file is missing, not JSON, or not a record", () => {
    expect(readUpgradeRollback(join(dir, "nowhere"))).toBeNull();
    writeFileSync(join(dir, UPGRADE_ROLLBACK_FILE), "{not json");
    expect(readUpgradeRollback(dir)).toBeNull();
    writeFileSync(join(dir, UPGRADE_ROLLBACK_FILE), JSON.stringify({ from: 1 }));
    expect(readUpgradeRollback(dir)).toBeNull();
  });
});
