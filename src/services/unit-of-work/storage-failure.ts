import { AppError } from "../../domain/errors.js";

/**
 * What the disk refused, as SQLite says it (sqlite.org/rescode.html), for the unit of work: a transaction
 * the database refused to begin is retried; a storage failure is answered with a stable 503 code
 * instead of a 500, since the client can do nothing about it but try again later.
 */
export function sqliteCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_") ? code : undefined;
}

/** Locked by another connection past busy_timeout (the CLI, a backup). */
export const isBusy = (e: unknown): boolean => /^SQLITE_(BUSY|LOCKED)/.test(sqliteCode(e) ?? "");

const STORAGE = /^SQLITE_(FULL|BUSY|LOCKED|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|NOLFS|PROTOCOL)/;

export const isStorage = (e: unknown): boolean => STORAGE.test(sqliteCode(e) ?? "");

/** `storage_full` for a full disk, `storage_error` for the rest; both mean nothing was changed. */
export function storageAppError(code: string): AppError {
  return code === "SQLITE_FULL"
    ? new AppError("storage_full", "the disk holding the station's database is full; nothing was changed")
    : new AppError(
        "storage_error",
        `the station's database could not be written (${code}); nothing was changed`,
      );
}
