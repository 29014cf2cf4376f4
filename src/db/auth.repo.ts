import { eq, isNotNull, lt, sql } from "drizzle-orm";
import type { Role } from "../domain/roles.js";
import type { Db } from "./open.js";
import { settings, supervisorCredentials, tokens, users } from "./tables.js";

/** Rows read through the query builder: drizzle maps `revoked` to a boolean itself. */
export type UserRow = Pick<
  typeof users.$inferSelect,
  "id" | "username" | "passwordHash" | "role" | "updatedAt"
>;

const USER_COLUMNS = {
  id: users.id,
  username: users.username,
  passwordHash: users.passwordHash,
  role: users.role,
  updatedAt: users.updatedAt,
};

export type TokenRow = Pick<
  typeof tokens.$inferSelect,
  "tokenHash" | "kind" | "userId" | "jti" | "family" | "expiresAt" | "revoked"
>;

/** Supervisors' seat credentials (services/auth/supervisors.ts), by their user. */
function supervisorCredentialRows(db: Db) {
  return {
    supervisorCredential(userId: number): { badgeHash: string | null; pinHash: string | null } | undefined {
      return db
        .select({ badgeHash: supervisorCredentials.badgeHash, pinHash: supervisorCredentials.pinHash })
        .from(supervisorCredentials)
        .where(eq(supervisorCredentials.userId, userId))
        .get();
    },
    /** Sets the badge digest and/or the PIN hash (undefined: kept; null: removed). */
    setSupervisorCredential(
      userId: number,
      set: { badgeHash?: string | null; pinHash?: string | null },
      now: number,
    ): void {
      db.insert(supervisorCredentials)
        .values({ userId, badgeHash: set.badgeHash ?? null, pinHash: set.pinHash ?? null, updatedAt: now })
        .onConflictDoUpdate({ target: supervisorCredentials.userId, set: { ...set, updatedAt: now } })
        .run();
    },
    removeSupervisorCredential(userId: number): boolean {
      return (
        db.delete(supervisorCredentials).where(eq(supervisorCredentials.userId, userId)).run().changes > 0
      );
    },
    /** The user whose badge has this digest. */
    supervisorByBadge(badgeHash: string): UserRow | undefined {
      return db
        .select(USER_COLUMNS)
        .from(supervisorCredentials)
        .innerJoin(users, eq(users.id, supervisorCredentials.userId))
        .where(eq(supervisorCredentials.badgeHash, badgeHash))
        .get();
    },
    /** Every supervisor with a PIN, and its hash (a typed PIN is tried against each: they are few). */
    supervisorPins(): Array<UserRow & { pinHash: string }> {
      return db
        .select({ ...USER_COLUMNS, pinHash: supervisorCredentials.pinHash })
        .from(supervisorCredentials)
        .innerJoin(users, eq(users.id, supervisorCredentials.userId))
        .where(isNotNull(supervisorCredentials.pinHash))
        .orderBy(users.id)
        .all()
        .flatMap((r) => (r.pinHash === null ? [] : [{ ...r, pinHash: r.pinHash }]));
    },
    /** Supervisors: name, role and which credentials each has. */
    listSupervisors(): Array<{ username: string; role: Role; badge: boolean; pin: boolean }> {
      return db
        .select({
          username: users.username,
          role: users.role,
          badgeHash: supervisorCredentials.badgeHash,
          pinHash: supervisorCredentials.pinHash,
        })
        .from(supervisorCredentials)
        .innerJoin(users, eq(users.id, supervisorCredentials.userId))
        .orderBy(users.id)
        .all()
        .map((r) => ({
          username: r.username,
          role: r.role,
          badge: r.badgeHash !== null,
          pin: r.pinHash !== null,
        }));
    },
  };
}

/** Users, tokens and the few settings the agent keeps for itself (client credential hash). */
export function createAuthRepo(db: Db) {
  // Every authenticated request reads its token and user: prepared once, not rebuilt per call.
  const tokenByHash = db
    .select({
      tokenHash: tokens.tokenHash,
      kind: tokens.kind,
      userId: tokens.userId,
      jti: tokens.jti,
      family: tokens.family,
      expiresAt: tokens.expiresAt,
      revoked: tokens.revoked,
    })
    .from(tokens)
    .where(eq(tokens.tokenHash, sql.placeholder("hash")))
    .prepare();
  const userById = db
    .select(USER_COLUMNS)
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare();

  // SQLite changes it whenever another connection (a `pps-edge user` command) commits to the file.
  const dataVersion = db.$client.prepare("PRAGMA data_version").pluck();

  return {
    ...supervisorCredentialRows(db),
    /** Changes when another process committed to the database since the last call's value. */
    dataVersion(): number {
      return dataVersion.get() as number;
    },
    getSetting(key: string): string | undefined {
      return db.select().from(settings).where(eq(settings.key, key)).get()?.value;
    },
    setSetting(key: string, value: string): void {
      db.insert(settings)
        .values({ key, value })
        .onConflictDoUpdate({ target: settings.key, set: { value } })
        .run();
    },
    findUser(username: string): UserRow | undefined {
      return db.select(USER_COLUMNS).from(users).where(eq(users.username, username)).get();
    },
    findUserById(id: number): UserRow | undefined {
      return userById.get({ id });
    },
    listUsers(): Array<Pick<UserRow, "id" | "username" | "role">> {
      return db
        .select({ id: users.id, username: users.username, role: users.role })
        .from(users)
        .orderBy(users.id)
        .all();
    },
    insertUser(username: string, passwordHash: string, role: Role, now: number): number {
      const row = db
        .insert(users)
        .values({ username, passwordHash, role, createdAt: now, updatedAt: now })
        .returning({ id: users.id })
        .get();
      return row.id;
    },
    updatePassword(userId: number, passwordHash: string, now: number): void {
      db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId)).run();
    },
    /** A new role is a change of the user: sessions opened before it end (screen-sessions.repo.ts). */
    updateRole(userId: number, role: Role, now: number): void {
      db.update(users).set({ role, updatedAt: now }).where(eq(users.id, userId)).run();
    },
    deleteUser(userId: number): void {
      db.delete(users).where(eq(users.id, userId)).run();
    },
    insertToken(row: TokenRow, now: number): void {
      db.insert(tokens)
        .values({ ...row, createdAt: now })
        .run();
    },
    findToken(tokenHash: string): TokenRow | undefined {
      return tokenByHash.get({ hash: tokenHash });
    },
    revokeToken(tokenHash: string): void {
      db.update(tokens).set({ revoked: true }).where(eq(tokens.tokenHash, tokenHash)).run();
    },
    revokeUserTokens(userId: number): void {
      db.update(tokens).set({ revoked: true }).where(eq(tokens.userId, userId)).run();
    },
    /** Every token descending from one login (a refresh token's reuse, docs/decisions.md). */
    revokeFamily(family: string): void {
      db.update(tokens).set({ revoked: true }).where(eq(tokens.family, family)).run();
    },
    /** Tokens past their expiry are useless; keep the table small. */
    pruneExpired(now: number): number {
      return db.delete(tokens).where(lt(tokens.expiresAt, now)).run().changes;
    },
  };
}

export type AuthRepo = ReturnType<typeof createAuthRepo>;
