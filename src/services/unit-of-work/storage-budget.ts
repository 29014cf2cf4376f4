import type { Logger } from "pino";
import {
  type BudgetTier,
  type BudgetVerdict,
  budgetError,
  budgetVerdict,
  type StorageBudget,
  type StorageUse,
} from "../../domain/storage-budget.js";
import type { Metrics } from "../../metrics.js";

/**
 * The storage budget's shell (docs/operations.md#storage-budget): measures before each change and
 * refuses it past the budget (domain/storage-budget.ts decides), so nothing is half-written; logs each
 * episode once, shows it on `/metrics` and in the `/readyz` check. Reads never come here.
 */
export interface StorageBudgetGuard {
  /**
   * Throws 503 `storage_budget` when the budget is spent for `tier` (a client by default; the station's
   * own work may use the reserve); called before a transaction begins.
   */
  admit(tier?: BudgetTier): void;
  /** The `/readyz` check: ok, or what is spent (measured afresh, so freed space shows at once). */
  check(): { ok: boolean; detail?: string };
}

export interface StorageBudgetDeps {
  budget: StorageBudget;
  measure: () => StorageUse;
  log: Logger;
  metrics?: Metrics | undefined;
  /** Told when the budget becomes spent or admits again (the operator screen shows it). */
  onChange?: (() => void) | undefined;
}

export function createStorageBudget({
  budget,
  measure,
  log,
  metrics,
  onChange,
}: StorageBudgetDeps): StorageBudgetGuard {
  let spent = false;
  const refused = metrics?.counter(
    "db_storage_budget_refusals_total",
    "Changes refused with 503 storage_budget (storage.maxDatabaseBytes or storage.minFreeDiskBytes reached)",
    ["limit"],
  );
  const gauge = (name: string, help: string, value: () => number) =>
    metrics?.gauge(name, help, [], () => [{ labels: {}, value: value() }]);
  gauge(
    "db_database_bytes",
    "Bytes the database's pages in use take (the budget's measure)",
    () => measure().databaseBytes,
  );
  gauge(
    "db_database_budget_bytes",
    "storage.maxDatabaseBytes: changes are refused from this size on",
    () => budget.maxDatabaseBytes,
  );
  gauge("db_disk_free_bytes", "Free bytes on the disk holding the database", () => measure().freeDiskBytes);
  gauge("db_storage_budget_ok", "1 while changes are admitted; 0 while the storage budget is spent", () =>
    verdict().ok ? 1 : 0,
  );

  function verdict(): BudgetVerdict {
    const v = budgetVerdict(measure(), budget);
    if (!v.ok && !spent)
      log.error({ limit: v.limit }, `storage budget spent (${v.detail}); changes are refused with 503`);
    if (v.ok && spent) log.info("storage budget: changes are admitted again");
    if (spent !== !v.ok) {
      spent = !v.ok;
      onChange?.();
    }
    return v;
  }

  return {
    admit(tier = "client") {
      const v = tier === "client" ? verdict() : budgetVerdict(measure(), budget, tier);
      if (v.ok) return;
      refused?.inc({ limit: v.limit });
      throw budgetError(v);
    },
    check() {
      const v = verdict();
      return v.ok ? { ok: true } : { ok: false, detail: `${v.limit}: ${v.detail}` };
    },
  };
}
