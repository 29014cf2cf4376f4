/**
 * The running agent's readiness and status, one owner for both: GET /readyz runs `checks()`,
 * `request/health_check` and systemd's STATUS= line read `status()`. The parts contribute their checks
 * as they are built (the database and storage here, the devices and the MQTT sync by the composition
 * root), so nothing has to be wired after the fact. The summary itself is station-status.ts.
 */
import { isMigrated, type Sqlite, shippedMigrationCount } from "../../db/open.js";
import type { OutboxRepo } from "../../db/outbox.repo.js";
import type { StorageHealth } from "../unit-of-work/unit-of-work.js";
import {
  evaluateReadiness,
  type ReadinessCheck,
  type StateFacts,
  type StationStatus,
  stationStatus,
} from "./station-status.js";

export interface AgentStatusDeps {
  version: string;
  outbox: Pick<OutboxRepo, "undeliveredCount" | "oldestUndelivered" | "deadCount" | "lastSeq">;
  state: (now: number) => StateFacts;
  now: () => number;
}

export function createAgentStatus(deps: AgentStatusDeps) {
  const since = new Date(deps.now()).toISOString();
  const checks: ReadinessCheck[] = [];
  return {
    /** Adds checks; /readyz lists them in the order added. */
    add(...more: ReadinessCheck[]): void {
      checks.push(...more);
    },
    checks: (): readonly ReadinessCheck[] => checks,
    status(): StationStatus {
      const now = deps.now();
      return stationStatus({
        version: deps.version,
        agent: { pid: process.pid, since },
        readiness: evaluateReadiness(checks),
        outbox: deps.outbox,
        state: deps.state(now),
        now,
      });
    },
  };
}

export type AgentStatus = ReturnType<typeof createAgentStatus>;

/** `database`: open and migrated to the shipped schema. */
export function databaseCheck(sqlite: Sqlite): ReadinessCheck {
  const migrations = shippedMigrationCount();
  return {
    name: "database",
    check: () =>
      isMigrated(sqlite, migrations)
        ? { ok: true }
        : { ok: false, detail: "database not open or not migrated" },
  };
}

/** `storage`: a full disk or an I/O error is unready until a write commits again (unit-of-work/storage-health.ts). */
export function storageCheck(storage: Pick<StorageHealth, "check">): ReadinessCheck {
  return { name: "storage", check: () => storage.check() };
}

/**
 * `storage_budget`: unready while the database's budget or the disk's free-space floor is spent
 * (unit-of-work/storage-budget.ts); measured at each look, so freed space shows at once.
 */
export function storageBudgetCheck(budget: { check(): { ok: boolean; detail?: string } }): ReadinessCheck {
  return { name: "storage_budget", check: () => budget.check() };
}

interface DeviceHealth {
  id: string;
  transport: string;
  connected: boolean;
  lastError?: string | null | undefined;
}

/**
 * `devices`: how many declared devices are connected, and which are not with their last error. Always
 * ok: an unplugged scanner or controller is retried and must not take the station out of service
 * (docs/architecture.md#devices-and-firmware-profiles); it is named here for the maintainer.
 */
export function devicesCheck(health: () => readonly DeviceHealth[]): ReadinessCheck {
  return {
    name: "devices",
    check: () => {
      const all = health();
      const down = all.filter((d) => !d.connected);
      const named = down.map((d) => `${d.id} (${d.transport}${d.lastError ? `: ${d.lastError}` : ""})`);
      const detail = `${all.length - down.length} of ${all.length} connected`;
      return { ok: true, detail: down.length ? `${detail}; not connected: ${named.join(", ")}` : detail };
    },
  };
}

/**
 * `durability`, only when the config gave up power safety (`db.synchronous: NORMAL` with
 * `db.powerSafe: false`): ready, but saying on every look what was given up.
 */
export function durabilityCheck(db: { synchronous: string; powerSafe: boolean }): ReadinessCheck[] {
  if (db.powerSafe) return [];
  return [{ name: "durability", check: () => ({ ok: true, detail: powerLossWarning(db.synchronous) }) }];
}

/** What a station that gave up power safety is told at start, on /readyz and in `pps-edge diag`. */
export function powerLossWarning(synchronous: string): string {
  return `db.synchronous ${synchronous} with db.powerSafe false: an acknowledged change can be lost on power loss`;
}

/**
 * `label_printer`, when the printer says its state (a Zebra's ~HS): its state in the detail, `degraded:`
 * and what stops it while it cannot print. Always ok: a roll of labels does not take the station out of
 * service; the bins whose labels did not print wait on the screen (docs/decisions.md#zpl-labels).
 */
export function labelPrinterCheck(
  state: () => { ok: boolean; problem: string | null; printer: string } | undefined,
): ReadinessCheck[] {
  if (state() === undefined) return [];
  return [
    {
      name: "label_printer",
      check: () => {
        const s = state();
        if (!s) return { ok: true };
        return { ok: true, detail: s.ok ? `ok (${s.printer})` : `degraded: ${s.problem} (${s.printer})` };
      },
    },
  ];
}
