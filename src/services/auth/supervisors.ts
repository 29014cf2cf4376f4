/**
 * Supervisors at the seat (docs/security.md#supervisor-credentials): an API user's badge and PIN,
 * set with `pps-edge user supervisor`, and their check when a screen action carries one. A credential
 * authorises the one action it comes with, if the supervisor's role may perform that action's operation
 * (domain/permissions.ts). Wrong credentials are throttled like logins (domain/login-throttle.ts), per
 * seat and client address, logged, counted and recorded in the security event log.
 */
import { setTimeout as wait } from "node:timers/promises";
import { AppError, fieldError } from "../../domain/errors.js";
import { mayPerform, type Operation, rolesFor } from "../../domain/permissions.js";
import { rolesText } from "../../domain/roles.js";
import {
  badgeSecret,
  pinProblem,
  SUPERVISOR_BADGE_PREFIX,
  type SupervisorCredential,
} from "../../domain/supervisor-credential.js";
import { type AuthDeps, type AuthUser, sha256 } from "./auth-deps.js";
import { UNKNOWN_ADDRESS } from "./login-attempts.js";
import { DUMMY_HASH, hashPassword, randomSecret, verifyPassword } from "./password.js";

function mustUser(deps: AuthDeps, username: string) {
  const user = deps.repo.findUser(username);
  if (!user) throw new AppError("not_found", `no user ${username}`);
  return user;
}

/** The PIN of no other supervisor: a typed PIN must name one supervisor. */
async function pinTaken(deps: AuthDeps, userId: number, pin: string): Promise<boolean> {
  for (const s of deps.repo.supervisorPins())
    if (s.id !== userId && (await verifyPassword(pin, s.pinHash))) return true;
  return false;
}

/** Gives `username` this PIN (kept hashed); refused when it breaks the rule or is another's. */
export async function setSupervisorPin(deps: AuthDeps, username: string, pin: string): Promise<void> {
  const problem = pinProblem(pin);
  if (problem !== null) throw fieldError("pin", problem);
  const user = mustUser(deps, username);
  if (await pinTaken(deps, user.id, pin))
    throw new AppError("user_exists", "another supervisor has this PIN: choose another", [
      { path: "pin", message: "taken" },
    ]);
  deps.repo.setSupervisorCredential(user.id, { pinHash: await hashPassword(pin) }, deps.now());
  deps.security?.({ kind: "supervisor_changed", channel: "cli", username, detail: { pin: "set" } });
}

/** A new badge for `username`: the barcode's text, shown once; only its digest is kept. */
export function newSupervisorBadge(deps: AuthDeps, username: string): string {
  const user = mustUser(deps, username);
  const secret = randomSecret(24);
  deps.repo.setSupervisorCredential(user.id, { badgeHash: sha256(secret) }, deps.now());
  deps.security?.({ kind: "supervisor_changed", channel: "cli", username, detail: { badge: "set" } });
  return `${SUPERVISOR_BADGE_PREFIX}${secret}`;
}

/** Takes the supervisor's badge and PIN away; false when the user had none. */
export function removeSupervisor(deps: AuthDeps, username: string): boolean {
  const user = mustUser(deps, username);
  const removed = deps.repo.removeSupervisorCredential(user.id);
  if (removed)
    deps.security?.({
      kind: "supervisor_changed",
      channel: "cli",
      username,
      detail: { badge: "removed", pin: "removed" },
    });
  return removed;
}

/** The supervisor a credential names, or undefined (one scrypt at least, whatever the input). */
async function supervisorOf(deps: AuthDeps, c: SupervisorCredential): Promise<AuthUser | undefined> {
  if (c.badge !== undefined) {
    const secret = badgeSecret(c.badge);
    const row = secret === null ? undefined : deps.repo.supervisorByBadge(sha256(secret));
    return row ? { id: row.id, username: row.username, role: row.role } : undefined;
  }
  const pin = c.pin ?? "";
  const all = deps.repo.supervisorPins();
  if (all.length === 0) await verifyPassword(pin, DUMMY_HASH);
  for (const s of all)
    if (await verifyPassword(pin, s.pinHash)) return { id: s.id, username: s.username, role: s.role };
  return undefined;
}

function refused(message: string): AppError {
  return new AppError("forbidden", message, [{ path: "supervisor", message }], { supervisor: "refused" });
}

/**
 * The supervisor whose badge or PIN this is, if their role may perform `op`. Throws `too_many_attempts`
 * while the seat's address is locked, and 403 `forbidden` (`details.supervisor: "refused"`) for a wrong
 * credential (counted by the throttle) or a supervisor whose role may not perform `op`.
 */
export async function authoriseSupervisor(
  deps: AuthDeps,
  at: { seat: string; address: string | undefined },
  credential: SupervisorCredential,
  op: Operation,
): Promise<AuthUser> {
  const { attempts } = deps;
  const name = `(supervisor at seat ${at.seat})`;
  const address = at.address ?? UNKNOWN_ADDRESS;
  const verdict = attempts.throttle.check(name, address, deps.now());
  if (!verdict.allowed) {
    attempts.failures?.("throttled");
    attempts.throttled?.();
    throw new AppError(
      "too_many_attempts",
      `too many wrong supervisor credentials: try again in ${verdict.retryAfterSeconds} s`,
      [],
      { retryAfterSeconds: verdict.retryAfterSeconds },
    );
  }
  const user = await supervisorOf(deps, credential);
  if (user) {
    attempts.throttle.succeed(name, address);
    if (!mayPerform(user.role, op))
      throw refused(`${user.username} (${user.role}) may not do this (roles: ${rolesText(rolesFor(op))})`);
    return user;
  }
  const reason = "wrong_supervisor_credential" as const;
  const { locked, delayMs } = attempts.throttle.failure(name, address, deps.now());
  attempts.failures?.(reason);
  attempts.log?.warn({ seat: at.seat, address, via: "screen", reason }, "supervisor credential refused");
  const event = { channel: "screen" as const, username: name, address };
  const by = credential.badge !== undefined ? "badge" : "pin";
  deps.security?.({ kind: "login_failed", ...event, detail: { reason, seat: at.seat, by } });
  if (locked)
    deps.security?.({
      kind: "login_throttled",
      ...event,
      detail: { scope: locked, lockSeconds: attempts.throttle.policy.lockMs / 1000 },
    });
  if (delayMs > 0) await (deps.sleep ?? wait)(delayMs);
  throw refused("not a supervisor's badge or PIN");
}
