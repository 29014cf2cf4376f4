import { randomUUID, timingSafeEqual } from "node:crypto";
import { AppError } from "../../domain/errors.js";
import type { Role } from "../../domain/roles.js";
import { type AuthDeps, type AuthUser, CLIENT_SECRET_KEY, sha256 } from "./auth-deps.js";
import { attemptLogin, type LoginOrigin } from "./login-attempts.js";
import { randomSecret } from "./password.js";

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

export type GrantRequest =
  | { grant_type: "password"; username: string; password: string }
  | { grant_type: "refresh_token"; refresh_token: string };

/**
 * Recently checked tokens, so a busy client does not cost two lookups per request. An entry lives a few
 * seconds at most: a revocation made by this process clears it at once; one made by the CLI (another
 * process) takes effect within TOKEN_CACHE_MS.
 */
export const TOKEN_CACHE_MS = 5000;
const TOKEN_CACHE_MAX = 1000;

/** One answer for every credential failure: no hint which part was wrong (issue: token endpoint). */
function badCredentials(): AppError {
  return new AppError("invalid_credentials", "invalid client credential, username or password");
}

function clientSecretMatches({ repo }: AuthDeps, secret: string): boolean {
  const stored = repo.getSetting(CLIENT_SECRET_KEY);
  if (!stored) return false;
  const a = Buffer.from(sha256(secret));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checks `Authorization: Basic base64(clientId:clientSecret)`. */
function checkClient(deps: AuthDeps, header: string | undefined): boolean {
  const m = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? "");
  if (!m?.[1]) return false;
  const decoded = Buffer.from(m[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return false;
  const id = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  const idOk =
    id.length === deps.clientId.length && timingSafeEqual(Buffer.from(id), Buffer.from(deps.clientId));
  return clientSecretMatches(deps, secret) && idOk;
}

/**
 * The token's `scope` is the user's role (docs/security.md#roles): what the token may be used for. `family` is
 * the login the tokens descend from: a password grant starts one (its jti), a refresh keeps it.
 */
function issue(deps: AuthDeps, userId: number, role: Role, family?: string): TokenResponse {
  const now = deps.now();
  const access = randomSecret(32);
  const refresh = randomSecret(32);
  const jti = randomUUID();
  const row = { userId, jti, family: family ?? jti, revoked: false };
  const token = (kind: "access" | "refresh", text: string, ttlSeconds: number) =>
    deps.repo.insertToken({ ...row, tokenHash: sha256(text), kind, expiresAt: now + ttlSeconds * 1000 }, now);
  token("access", access, deps.tokenTtlSeconds);
  token("refresh", refresh, deps.refreshTokenTtlSeconds);
  return {
    access_token: access,
    token_type: "bearer",
    refresh_token: refresh,
    expires_in: deps.tokenTtlSeconds,
    scope: role,
    user_id: userId,
    jti,
  };
}

/**
 * The token endpoint: a password grant (throttled, login-attempts.ts), or a refresh token exchanged
 * once for new tokens.
 */
export async function grant(
  deps: AuthDeps,
  authorization: string | undefined,
  req: GrantRequest,
  origin: LoginOrigin = { via: "http", address: undefined },
): Promise<TokenResponse> {
  const { repo } = deps;
  const clientOk = checkClient(deps, authorization);
  if (req.grant_type === "password") {
    const login = { username: req.username, password: req.password, clientOk };
    const user = await attemptLogin(deps, login, origin);
    return issue(deps, user.id, user.role);
  }
  const row = repo.findToken(sha256(req.refresh_token));
  if (!clientOk || !row || row.kind !== "refresh" || row.expiresAt <= deps.now()) throw badCredentials();
  const revoked = (reason: string, scope: "token" | "family") =>
    deps.security?.({
      kind: "token_revoked",
      channel: origin.via,
      username: repo.findUserById(row.userId)?.username,
      address: origin.address,
      detail: { reason, scope, jti: row.jti, family: row.family },
    });
  if (row.revoked) {
    // A refresh token used twice was stolen or replayed: end every token of its login, the family
    // (RFC 6819 §5.2.2.3), not the user's other logins: one central user often runs several clients.
    repo.revokeFamily(row.family);
    deps.recent.clear();
    revoked("refresh_token_reused", "family");
    // the family's open bearer streams end now too: this process's own commit does not move data_version
    deps.live.sweep();
    throw badCredentials();
  }
  const user = repo.findUserById(row.userId);
  if (!user) throw badCredentials();
  repo.revokeToken(row.tokenHash);
  revoked("refresh_rotation", "token");
  return issue(deps, row.userId, user.role, row.family);
}

/** Resolves a bearer token to its user, or a 401. */
export function authenticate(deps: AuthDeps, authorization: string | undefined): AuthUser {
  const m = /^Bearer\s+([A-Za-z0-9_-]{16,128})\s*$/i.exec(authorization ?? "");
  if (!m?.[1]) {
    throw new AppError(
      "unauthorized",
      authorization ? "malformed bearer token" : "missing Authorization: Bearer token",
      [{ path: "Authorization", message: "expected 'Bearer <access_token>'" }],
    );
  }
  const now = deps.now();
  const version = deps.repo.dataVersion();
  if (version !== deps.recentVersion.value) {
    deps.recent.clear();
    deps.recentVersion.value = version;
  }
  const hit = deps.recent.get(m[1]);
  if (hit && now < hit.until) return hit.user;
  const row = deps.repo.findToken(sha256(m[1]));
  if (row?.kind !== "access" || row.revoked) {
    throw new AppError("unauthorized", "unknown or revoked token", [
      { path: "Authorization", message: "request a new token" },
    ]);
  }
  if (row.expiresAt <= deps.now()) {
    throw new AppError("unauthorized", "token expired", [
      { path: "Authorization", message: "request a new token" },
    ]);
  }
  const user = deps.repo.findUserById(row.userId);
  if (!user) throw new AppError("unauthorized", "unknown or revoked token");
  const found = { id: user.id, username: user.username, role: user.role };
  if (deps.recent.size >= TOKEN_CACHE_MAX) deps.recent.clear();
  deps.recent.set(m[1], { user: found, until: Math.min(row.expiresAt, now + TOKEN_CACHE_MS) });
  return found;
}
