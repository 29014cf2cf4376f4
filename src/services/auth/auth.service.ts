import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import type { AuthRepo } from "../db/auth.repo.js";
import { AppError } from "../domain/errors.js";
import { DUMMY_HASH, hashPassword, randomSecret, verifyPassword } from "./password.js";

export interface AuthOptions {
  clientId: string;
  tokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  now: () => number;
}

/** The token response of the spec's Authentication section. */
export interface TokenResponse {
  access_token: string;
  token_type: "bearer";
  refresh_token: string;
  expires_in: number;
  scope: string;
  user_id: number;
  jti: string;
}

export interface AuthUser {
  id: number;
  username: string;
}

export type GrantRequest =
  | { grant_type: "password"; username: string; password: string }
  | { grant_type: "refresh_token"; refresh_token: string };

export const SCOPE = "read write";
const CLIENT_SECRET_KEY = "client_secret_hash";

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}

/** One answer for every credential failure: no hint which part was wrong (issue: token endpoint). */
function badCredentials(): AppError {
  return new AppError("invalid_credentials", "invalid client credential, username or password");
}

/**
 * Recently checked tokens, so a busy client does not cost two lookups per request. An entry lives a few
 * seconds at most: a revocation made by this process clears it at once; one made by the CLI (another
 * process) takes effect within TOKEN_CACHE_MS.
 */
export const TOKEN_CACHE_MS = 5000;
const TOKEN_CACHE_MAX = 1000;

export function createAuthService(repo: AuthRepo, opts: AuthOptions) {
  const recent = new Map<string, { user: AuthUser; until: number }>();
  function clientSecretMatches(secret: string): boolean {
    const stored = repo.getSetting(CLIENT_SECRET_KEY);
    if (!stored) return false;
    const a = Buffer.from(sha256(secret));
    const b = Buffer.from(stored);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** Checks `Authorization: Basic base64(clientId:clientSecret)`. */
  function checkClient(header: string | undefined): boolean {
    const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? "");
    if (!m?.[1]) return false;
    const decoded = Buffer.from(m[1], "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return false;
    const id = decoded.slice(0, colon);
    const secret = decoded.slice(colon + 1);
    const idOk =
      id.length === opts.clientId.length && timingSafeEqual(Buffer.from(id), Buffer.from(opts.clientId));
    return clientSecretMatches(secret) && idOk;
  }

  function issue(userId: number): TokenResponse {
    const now = opts.now();
    const access = randomSecret(32);
    const refresh = randomSecret(32);
    const jti = randomUUID();
    repo.insertToken(
      {
        tokenHash: sha256(access),
        kind: "access",
        userId,
        jti,
        expiresAt: now + opts.tokenTtlSeconds * 1000,
        revoked: false,
      },
      now,
    );
    repo.insertToken(
      {
        tokenHash: sha256(refresh),
        kind: "refresh",
        userId,
        jti,
        expiresAt: now + opts.refreshTokenTtlSeconds * 1000,
        revoked: false,
      },
      now,
    );
    return {
      access_token: access,
      token_type: "bearer",
      refresh_token: refresh,
      expires_in: opts.tokenTtlSeconds,
      scope: SCOPE,
      user_id: userId,
      jti,
    };
  }

  return {
    /** The configured client secret wins; it is stored hashed so the database never holds it in clear. */
    setClientSecret(secret: string): void {
      repo.setSetting(CLIENT_SECRET_KEY, sha256(secret));
    },
    hasClientSecret(): boolean {
      return repo.getSetting(CLIENT_SECRET_KEY) !== undefined;
    },

    async grant(authorization: string | undefined, req: GrantRequest): Promise<TokenResponse> {
      const clientOk = checkClient(authorization);
      if (req.grant_type === "password") {
        const user = repo.findUser(req.username);
        // Always spend one scrypt so timing does not tell a wrong user from a wrong password.
        const ok = await verifyPassword(req.password, user?.passwordHash ?? DUMMY_HASH);
        if (!clientOk || !user || !ok) throw badCredentials();
        return issue(user.id);
      }
      const row = repo.findToken(sha256(req.refresh_token));
      if (!clientOk || !row || row.kind !== "refresh" || row.expiresAt <= opts.now()) throw badCredentials();
      if (row.revoked) {
        // A refresh token used twice was stolen or replayed: end every session of that user (RFC 6819 §5.2.2.3).
        repo.revokeUserTokens(row.userId);
        recent.clear();
        throw badCredentials();
      }
      repo.revokeToken(row.tokenHash);
      return issue(row.userId);
    },

    /** Resolves a bearer token to its user, or a 401. */
    authenticate(authorization: string | undefined): AuthUser {
      const m = /^Bearer\s+([A-Za-z0-9_-]{16,128})\s*$/i.exec(authorization ?? "");
      if (!m?.[1]) {
        throw new AppError(
          "unauthorized",
          authorization ? "malformed bearer token" : "missing Authorization: Bearer token",
          [{ path: "Authorization", message: "expected 'Bearer <access_token>'" }],
        );
      }
      const now = opts.now();
      const hit = recent.get(m[1]);
      if (hit && now < hit.until) return hit.user;
      const row = repo.findToken(sha256(m[1]));
      if (row?.kind !== "access" || row.revoked) {
        throw new AppError("unauthorized", "unknown or revoked token", [
          { path: "Authorization", message: "request a new token" },
        ]);
      }
      if (row.expiresAt <= opts.now()) {
        throw new AppError("unauthorized", "token expired", [
          { path: "Authorization", message: "request a new token" },
        ]);
      }
      const user = repo.findUserById(row.userId);
      if (!user) throw new AppError("unauthorized", "unknown or revoked token");
      const found = { id: user.id, username: user.username };
      if (recent.size >= TOKEN_CACHE_MAX) recent.clear();
      recent.set(m[1], { user: found, until: Math.min(row.expiresAt, now + TOKEN_CACHE_MS) });
      return found;
    },

    async addUser(username: string, password: string): Promise<number> {
      if (repo.findUser(username)) throw new AppError("user_exists", `user ${username} exists`);
      return repo.insertUser(username, await hashPassword(password), opts.now());
    },
    async resetPassword(username: string, password: string): Promise<void> {
      const user = repo.findUser(username);
      if (!user) throw new AppError("not_found", `no user ${username}`);
      repo.updatePassword(user.id, await hashPassword(password), opts.now());
      repo.revokeUserTokens(user.id);
      recent.clear();
    },
    removeUser(username: string): void {
      const user = repo.findUser(username);
      if (!user) throw new AppError("not_found", `no user ${username}`);
      repo.deleteUser(user.id);
      recent.clear();
    },
    hasUser(username: string): boolean {
      return repo.findUser(username) !== undefined;
    },
    listUsers: () => repo.listUsers(),
    pruneExpired: () => repo.pruneExpired(opts.now()),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
