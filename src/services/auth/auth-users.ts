import { AppError, fieldError } from "../../domain/errors.js";
import { passwordProblem } from "../../domain/password-policy.js";
import type { Role } from "../../domain/roles.js";
import type { RevokeReason } from "./access-events.js";
import { type AuthDeps, type AuthUser, CLIENT_SECRET_KEY, sha256 } from "./auth-deps.js";
import { DUMMY_HASH, hashPassword, verifyPassword } from "./password.js";

/** API users and the client credential (the CLI's `pps-edge user …`, and the first start). */

/** The configured client secret wins; it is stored hashed so the database never holds it in clear. */
export function setClientSecret({ repo }: AuthDeps, secret: string): void {
  repo.setSetting(CLIENT_SECRET_KEY, sha256(secret));
}

export function hasClientSecret({ repo }: AuthDeps): boolean {
  return repo.getSetting(CLIENT_SECRET_KEY) !== undefined;
}

/** Every password a user is given keeps the one rule, whoever gives it (CLI, first start). */
function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem !== null) throw fieldError("password", problem);
}

export async function addUser(
  deps: AuthDeps,
  username: string,
  password: string,
  role: Role,
): Promise<number> {
  checkPassword(password);
  if (deps.repo.findUser(username)) throw new AppError("user_exists", `user ${username} exists`);
  const id = deps.repo.insertUser(username, await hashPassword(password), role, deps.now());
  deps.security?.({ kind: "user_added", channel: "cli", username, detail: { role } });
  return id;
}

/**
 * Revocation at once (docs/security.md#roles): no cached token outlives the change, and the user's open
 * screen streams and MQTT connections end now (live-sessions.ts). The tokens' revocation is recorded
 * in the security event log by `onRevoked` (access-events.ts).
 */
function revoked(deps: AuthDeps, username: string, reason: RevokeReason, tokens: boolean): void {
  deps.recent.clear();
  if (tokens) deps.access.onRevoked({ username, reason, what: "tokens" });
  deps.live.sweep();
}

/** A new role counts from the user's next request; their screen sessions and MQTT connections end. */
export function setRole(deps: AuthDeps, username: string, role: Role): boolean {
  const user = deps.repo.findUser(username);
  if (!user) throw new AppError("not_found", `no user ${username}`);
  if (user.role === role) return false;
  deps.repo.updateRole(user.id, role, deps.now());
  deps.security?.({ kind: "role_changed", channel: "cli", username, detail: { from: user.role, to: role } });
  revoked(deps, username, "role_changed", false);
  return true;
}

/** A new password revokes the user's tokens. */
export async function resetPassword(deps: AuthDeps, username: string, password: string): Promise<void> {
  checkPassword(password);
  const user = deps.repo.findUser(username);
  if (!user) throw new AppError("not_found", `no user ${username}`);
  deps.repo.updatePassword(user.id, await hashPassword(password), deps.now());
  deps.repo.revokeUserTokens(user.id);
  deps.security?.({ kind: "password_changed", channel: "cli", username });
  revoked(deps, username, "password_reset", true);
}

export function removeUser(deps: AuthDeps, username: string): void {
  const user = deps.repo.findUser(username);
  if (!user) throw new AppError("not_found", `no user ${username}`);
  deps.repo.deleteUser(user.id);
  deps.security?.({ kind: "user_removed", channel: "cli", username });
  revoked(deps, username, "user_removed", true);
}

/**
 * The user with this name and password, or undefined. Always spends one scrypt, so timing does not tell
 * a wrong user from a wrong password (the token endpoint, the embedded MQTT broker).
 */
export async function checkUserPassword(
  { repo }: AuthDeps,
  username: string,
  password: string,
): Promise<AuthUser | undefined> {
  const user = repo.findUser(username);
  const ok = await verifyPassword(password, user?.passwordHash ?? DUMMY_HASH);
  return user && ok ? { id: user.id, username: user.username, role: user.role } : undefined;
}
