import { createHash } from "node:crypto";
import type { Logger } from "pino";
import type { AuthRepo } from "../../db/auth.repo.js";
import type { LoginThrottle } from "../../domain/login-throttle.js";
import type { Role } from "../../domain/roles.js";
import type { Metrics } from "../../metrics.js";
import type { AccessEvents } from "./access-events.js";
import type { LiveSessions } from "./live-sessions.js";
import type { SecurityRecorder } from "./security-log.js";

export interface AuthUser {
  id: number;
  username: string;
  /** Read with the token: a new role counts from the next request (docs/security.md#roles). */
  role: Role;
}

export interface AuthOptions {
  clientId: string;
  tokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  now: () => number;
  /** Where failed logins are logged and counted; none in the CLI. */
  log?: Logger;
  metrics?: Metrics;
  /** Where logins, lockouts, user changes and revocations are recorded (security-log.ts). */
  security?: SecurityRecorder;
  /** Where refusals go: recorded once per caller and target every 10 minutes (security-log.ts). */
  securityRefused?: SecurityRecorder;
  /** Waits before a delayed failed login is answered (a timer; tests pass one that records). */
  sleep?: (ms: number) => Promise<void>;
}

export type LoginFailureReason =
  | "unknown_user"
  | "wrong_password"
  | "bad_client"
  | "throttled"
  | "wrong_screen_key"
  | "wrong_supervisor_credential";

/** The login throttle and where failures go (login-attempts.ts). */
export interface LoginAttempts {
  throttle: LoginThrottle;
  log: Logger | undefined;
  failures: ((reason: LoginFailureReason) => void) | undefined;
  throttled: (() => void) | undefined;
}

/** What the auth use cases read and write, and the tokens checked recently. */
export interface AuthDeps extends AuthOptions {
  repo: AuthRepo;
  /** Recently checked tokens by their text (see TOKEN_CACHE_MS); cleared by every revocation. */
  recent: Map<string, { user: AuthUser; until: number }>;
  /**
   * The database's data_version when `recent` was last known good: a user removed or a password
   * reset by another process (the CLI) changes it, and the cache is dropped at the next check.
   */
  recentVersion: { value: number };
  attempts: LoginAttempts;
  /** Where role refusals and revocations are logged and counted (access-events.ts). */
  access: AccessEvents;
  /** Screen streams and MQTT clients of users, ended when their user is removed or changed. */
  live: LiveSessions;
}

export const CLIENT_SECRET_KEY = "client_secret_hash";

/** Tokens and the client secret are stored as their hash: the database never holds them in clear. */
export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("base64url");
}
