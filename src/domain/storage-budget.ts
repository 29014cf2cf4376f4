import { AppError } from "./errors.js";

/**
 * The station database's storage budget (docs/operations.md#storage-budget): how large the database may
 * grow, and how much free disk it must leave. Past either, changes are refused with 503
 * `storage_budget` before anything is written, while reads, logins and the delivery of notifications go
 * on. Pure: the sizes are inputs.
 */
export interface StorageBudget {
  /** The bytes the database's pages in use may take (config `storage.maxDatabaseBytes`). */
  maxDatabaseBytes: number;
  /** The free bytes the disk holding it must keep (config `storage.minFreeDiskBytes`). */
  minFreeDiskBytes: number;
  /**
   * The bytes past `maxDatabaseBytes` the station's own work may still take (config
   * `storage.stationReserveBytes`): a client that fills the budget does not stop the operators.
   */
  stationReserveBytes?: number | undefined;
}

/**
 * Who asks: `client` for the interface's clients (central's requests, master data, reports), held to the
 * budget; `station` for the work at the station (operators' picks, puts, scans), which may use the reserve.
 */
export type BudgetTier = "client" | "station";

/** What the database takes and what the disk has left, as measured now. */
export interface StorageUse {
  databaseBytes: number;
  freeDiskBytes: number;
}

export type BudgetVerdict =
  | { ok: true }
  | { ok: false; limit: "storage.maxDatabaseBytes" | "storage.minFreeDiskBytes"; detail: string };

const mb = (bytes: number) => `${Math.round(bytes / 1e5) / 10} MB`;

export function budgetVerdict(
  use: StorageUse,
  budget: StorageBudget,
  tier: BudgetTier = "client",
): BudgetVerdict {
  const limit = budget.maxDatabaseBytes + (tier === "station" ? (budget.stationReserveBytes ?? 0) : 0);
  if (use.databaseBytes >= limit)
    return {
      ok: false,
      limit: "storage.maxDatabaseBytes",
      detail: `the database takes ${mb(use.databaseBytes)}, its budget is ${mb(limit)}`,
    };
  if (use.freeDiskBytes < budget.minFreeDiskBytes)
    return {
      ok: false,
      limit: "storage.minFreeDiskBytes",
      detail: `the disk has ${mb(use.freeDiskBytes)} free, the database must leave ${mb(budget.minFreeDiskBytes)}`,
    };
  return { ok: true };
}

/** The 503 of a change refused for the budget: names the limit reached; nothing was changed. */
export function budgetError(v: Extract<BudgetVerdict, { ok: false }>): AppError {
  return new AppError(
    "storage_budget",
    `the station's storage budget is spent (${v.detail}); the change is refused, nothing was changed`,
    [{ path: v.limit, message: v.detail }],
    { limit: v.limit },
  );
}
