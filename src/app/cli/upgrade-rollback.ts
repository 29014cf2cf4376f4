/**
 * The record the upgrade guard (/usr/lib/pps-edge/upgrade-guard) leaves in the data folder when an
 * upgraded release did not become ready in time and the station went back to the previous one
 * (docs/operations.md#self-healing-upgrade); `pps-edge status` reports it until an upgrade succeeds.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const UPGRADE_ROLLBACK_FILE = "upgrade-rollback.json";

export interface UpgradeRollback {
  /** The release that was not ready, and the one the station runs again. */
  from: string;
  to: string;
  at: string;
  reason: string;
  /** The backup restored, or "no backup". */
  backup: string;
}

/** The record in `dataDir`, or null when there is none (or it cannot be read as one). */
export function readUpgradeRollback(dataDir: string): UpgradeRollback | null {
  try {
    const r = JSON.parse(
      readFileSync(join(dataDir, UPGRADE_ROLLBACK_FILE), "utf8"),
    ) as Partial<UpgradeRollback>;
    if (typeof r.from !== "string" || typeof r.to !== "string" || typeof r.reason !== "string") return null;
    return {
      from: r.from,
      to: r.to,
      at: String(r.at ?? ""),
      reason: r.reason,
      backup: String(r.backup ?? ""),
    };
  } catch {
    return null;
  }
}

/** The status line saying so. */
export function upgradeRollbackLine(r: UpgradeRollback): string {
  return `upgrade rolled back at ${r.at}: ${r.reason}; running ${r.to} again, database from ${r.backup}`;
}
