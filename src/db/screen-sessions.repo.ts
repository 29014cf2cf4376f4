import type { Role } from "../domain/roles.js";
import type { Sqlite } from "./open.js";

export interface ScreenSessionRow {
  tokenHash: string;
  seat: string;
  kind: "key" | "user";
  userId: number | null;
  keyId: string | null;
  createdAt: number;
  expiresAt: number;
}

/** A session with its user's name, role and last change (null: a key session, or the user is gone). */
export type ScreenSessionFound = ScreenSessionRow & {
  userChangedAt: number | null;
  username: string | null;
  role: Role | null;
};

/**
 * Operator screen sessions (tables/screen.table.ts). A user's session is read together with the
 * user's last change, so a password reset, a new role (or removal) ends the sessions opened before it.
 */
export function createScreenSessionsRepo(sqlite: Sqlite) {
  const q = {
    insert: sqlite.prepare(
      `INSERT INTO screen_sessions (token_hash, seat, kind, user_id, key_id, created_at, expires_at)
       VALUES (@tokenHash, @seat, @kind, @userId, @keyId, @createdAt, @expiresAt)`,
    ),
    find: sqlite.prepare<[string], ScreenSessionFound>(
      `SELECT s.token_hash AS tokenHash, s.seat, s.kind, s.user_id AS userId, s.key_id AS keyId,
              s.created_at AS createdAt, s.expires_at AS expiresAt, u.updated_at AS userChangedAt,
              u.username AS username, u.role AS role
         FROM screen_sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`,
    ),
    renew: sqlite.prepare("UPDATE screen_sessions SET expires_at = ? WHERE token_hash = ?"),
    remove: sqlite.prepare("DELETE FROM screen_sessions WHERE token_hash = ?"),
    prune: sqlite.prepare("DELETE FROM screen_sessions WHERE expires_at < ?"),
  };
  return {
    insert: (row: ScreenSessionRow): void => {
      q.insert.run(row);
    },
    find: (tokenHash: string) => q.find.get(tokenHash),
    renew: (tokenHash: string, expiresAt: number): void => {
      q.renew.run(expiresAt, tokenHash);
    },
    remove: (tokenHash: string): void => {
      q.remove.run(tokenHash);
    },
    pruneExpired: (now: number): number => q.prune.run(now).changes,
  };
}

export type ScreenSessionsRepo = ReturnType<typeof createScreenSessionsRepo>;
