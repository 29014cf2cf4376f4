import { setTimeout as wait } from "node:timers/promises";
import type { Logger } from "pino";
import { AppError } from "../../domain/errors.js";
import { LoginThrottle } from "../../domain/login-throttle.js";
import type { Metrics } from "../../metrics.js";
import type { AuthDeps, AuthUser, LoginAttempts, LoginFailureReason } from "./auth-deps.js";
import { checkUserPassword } from "./auth-users.js";

/**
 * Password logins, by the token endpoint and the embedded MQTT broker alike: throttled by
 * domain/login-throttle.ts (answers to repeated failures delayed, then refused), every failure logged
 * (user name, client address, reason; never the password), counted on /metrics (docs/operations.md,
 * Metrics) and recorded in the security event log with each success and each lockout.
 */

/** Where a login came from: the protocol, and the client's address when known. */
export interface LoginOrigin {
  via: "http" | "mqtt" | "screen";
  address: string | undefined;
}

/** An address nobody can send from: in-process requests and sockets that did not say. */
export const UNKNOWN_ADDRESS = "unknown";

export function createLoginAttempts(log?: Logger, metrics?: Metrics): LoginAttempts {
  const failures = metrics?.counter(
    "auth_login_failures_total",
    "Failed password logins (token endpoint and MQTT broker), by reason",
    ["reason"],
  );
  const throttled = metrics?.counter(
    "auth_login_throttled_total",
    "Password logins refused unchecked because the user name and address, or the address, is locked",
  );
  return {
    throttle: new LoginThrottle(),
    log,
    failures: failures ? (reason) => failures.inc({ reason }) : undefined,
    throttled: throttled ? () => throttled.inc() : undefined,
  };
}

function tooMany(retryAfterSeconds: number): AppError {
  return new AppError(
    "too_many_attempts",
    `too many failed logins: try again in ${retryAfterSeconds} s`,
    [],
    { retryAfterSeconds },
  );
}

function badCredentials(): AppError {
  return new AppError("invalid_credentials", "invalid client credential, username or password");
}

/**
 * The user for this name and password, if the client credential is right too and neither the pair nor
 * the address is locked. Throws `too_many_attempts` (with `details.retryAfterSeconds`) or
 * `invalid_credentials`, one answer for every wrong part.
 */
export async function attemptLogin(
  deps: AuthDeps,
  login: { username: string; password: string; clientOk: boolean },
  origin: LoginOrigin,
): Promise<AuthUser> {
  const { attempts } = deps;
  const { username } = login;
  const address = origin.address ?? UNKNOWN_ADDRESS;
  const fields = { user: username, address, via: origin.via };
  const verdict = attempts.throttle.check(username, address, deps.now());
  if (!verdict.allowed) {
    attempts.failures?.("throttled");
    attempts.throttled?.();
    attempts.log?.warn({ ...fields, reason: "throttled" }, "login refused");
    throw tooMany(verdict.retryAfterSeconds);
  }
  const user = await checkUserPassword(deps, username, login.password);
  const event = { channel: origin.via, username, address };
  if (user && login.clientOk) {
    attempts.throttle.succeed(username, address);
    deps.security?.({ kind: "login_succeeded", ...event });
    return user;
  }
  const reason: LoginFailureReason = !deps.repo.findUser(username)
    ? "unknown_user"
    : !user
      ? "wrong_password"
      : "bad_client";
  // A wrong client credential answers the same whatever the password: it counts for the address only.
  const { locked, delayMs } =
    reason === "bad_client"
      ? attempts.throttle.addressFailure(address, deps.now())
      : attempts.throttle.failure(username, address, deps.now());
  attempts.failures?.(reason);
  attempts.log?.warn({ ...fields, reason, ...(locked ? { locked: true } : {}) }, "login failed");
  deps.security?.({ kind: "login_failed", ...event, detail: { reason, ...(delayMs ? { delayMs } : {}) } });
  // once per lockout: the refused attempts that follow are counted on /metrics, not stored
  if (locked) {
    const lockSeconds = attempts.throttle.policy.lockMs / 1000;
    deps.security?.({ kind: "login_throttled", ...event, detail: { scope: locked, lockSeconds } });
  }
  // the timer holds this answer only: other clients and the event loop go on meanwhile
  if (delayMs > 0) await (deps.sleep ?? wait)(delayMs);
  throw badCredentials();
}

/**
 * A seat's screen key offered by the client at `address` (the station box's display opening its page):
 * throttled like a password login, as if the seat's key were a user name (docs/security.md#login-policy),
 * so a LAN host cannot guess keys at speed; a wrong key is logged, counted on /metrics
 * (`wrong_screen_key`) and recorded in the security event log. Throws `too_many_attempts` while locked
 * (the right key too); otherwise answers whether the key was right.
 */
export async function screenKeyAttempt(
  deps: AuthDeps,
  seat: string,
  right: boolean,
  address: string | undefined,
): Promise<boolean> {
  const { attempts } = deps;
  const username = `(screen key ${seat})`;
  const from = address ?? UNKNOWN_ADDRESS;
  const verdict = attempts.throttle.check(username, from, deps.now());
  if (!verdict.allowed) {
    attempts.failures?.("throttled");
    attempts.throttled?.();
    attempts.log?.warn({ seat, address: from, via: "screen", reason: "throttled" }, "screen key refused");
    throw tooMany(verdict.retryAfterSeconds);
  }
  if (right) {
    attempts.throttle.succeed(username, from);
    return true;
  }
  const { locked, delayMs } = attempts.throttle.failure(username, from, deps.now());
  const reason: LoginFailureReason = "wrong_screen_key";
  attempts.failures?.(reason);
  attempts.log?.warn({ seat, address: from, via: "screen", reason }, "screen key refused");
  const event = { channel: "screen" as const, username, address: from };
  deps.security?.({
    kind: "login_failed",
    ...event,
    detail: { reason, seat, ...(delayMs ? { delayMs } : {}) },
  });
  if (locked)
    deps.security?.({
      kind: "login_throttled",
      ...event,
      detail: { scope: locked, lockSeconds: attempts.throttle.policy.lockMs / 1000 },
    });
  if (delayMs > 0) await (deps.sleep ?? wait)(delayMs);
  return false;
}

/** A sign-in on the operator screen: the same throttle and log as the token endpoint's. */
export function screenLogin(
  deps: AuthDeps,
  username: string,
  password: string,
  address: string | undefined,
): Promise<AuthUser> {
  return attemptLogin(deps, { username, password, clientOk: true }, { via: "screen", address });
}

/** The embedded broker's check: the user, or undefined; a throttled login is refused like a wrong password. */
export async function brokerLogin(
  deps: AuthDeps,
  username: string,
  password: string,
  address: string | undefined,
): Promise<AuthUser | undefined> {
  try {
    return await attemptLogin(deps, { username, password, clientOk: true }, { via: "mqtt", address });
  } catch (err) {
    if (err instanceof AppError) return undefined;
    throw err;
  }
}
