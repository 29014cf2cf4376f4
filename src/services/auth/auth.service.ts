/**
 * The auth aggregate's door (spec: Authentication; docs/architecture.md#auth): the token endpoint, bearer
 * tokens, API users and the client credential, and the credentials made on the first start. Use cases
 * are functions of their dependencies and input; `createAuthService` binds them. Callers import this
 * module only.
 */
import type { AuthRepo } from "../../db/auth.repo.js";
import type { Operation } from "../../domain/permissions.js";
import type { Role } from "../../domain/roles.js";
import type { SupervisorCredential } from "../../domain/supervisor-credential.js";
import { createAccessEvents } from "./access-events.js";
import type { AuthDeps, AuthOptions } from "./auth-deps.js";
import { authenticate, type GrantRequest, grant } from "./auth-tokens.js";
import {
  addUser,
  checkUserPassword,
  hasClientSecret,
  removeUser,
  resetPassword,
  setClientSecret,
  setRole,
} from "./auth-users.js";
import { createLiveSessions, type LiveSession } from "./live-sessions.js";
import {
  brokerLogin,
  createLoginAttempts,
  type LoginOrigin,
  screenKeyAttempt,
  screenLogin,
} from "./login-attempts.js";
import { hasScrapeToken, isScrapeToken, setScrapeToken } from "./scrape-token.js";
import {
  authoriseSupervisor,
  newSupervisorBadge,
  removeSupervisor,
  setSupervisorPin,
} from "./supervisors.js";

export type { AccessEvents, ForbiddenEvent, RevokedEvent } from "./access-events.js";
export type { AuthDeps, AuthOptions, AuthUser } from "./auth-deps.js";
export {
  authenticate,
  type GrantRequest,
  grant,
  TOKEN_CACHE_MS,
  type TokenResponse,
} from "./auth-tokens.js";
export {
  addUser,
  hasClientSecret,
  removeUser,
  resetPassword,
  setClientSecret,
  setRole,
} from "./auth-users.js";
export { CREDENTIALS_FILE, type CredentialSettings, ensureCredentials } from "./credentials.js";
export type { LiveSession } from "./live-sessions.js";
export { type LoginOrigin, UNKNOWN_ADDRESS } from "./login-attempts.js";
export { createScreenSessions, type ScreenSessions } from "./screen-sessions.js";
export { createSecurityLog, type SecurityLog } from "./security-log.js";

export function createAuthService(repo: AuthRepo, opts: AuthOptions) {
  const access = createAccessEvents(opts.log, opts.metrics, {
    record: opts.security,
    refused: opts.securityRefused,
  });
  const deps: AuthDeps = {
    ...opts,
    repo,
    recent: new Map(),
    recentVersion: { value: repo.dataVersion() },
    attempts: createLoginAttempts(opts.log, opts.metrics),
    access,
    live: createLiveSessions(repo, access),
  };
  return {
    setClientSecret: (secret: string) => setClientSecret(deps, secret),
    hasClientSecret: () => hasClientSecret(deps),
    setScrapeToken: (token: string) => setScrapeToken(deps, token),
    hasScrapeToken: () => hasScrapeToken(deps),
    /** The `/metrics` scrape credential (scrape-token.ts). */
    isScrapeToken: (authorization: string | undefined) => isScrapeToken(deps, authorization),
    grant: (authorization: string | undefined, req: GrantRequest, origin?: LoginOrigin) =>
      grant(deps, authorization, req, origin),
    authenticate: (authorization: string | undefined) => authenticate(deps, authorization),
    addUser: (username: string, password: string, role: Role) => addUser(deps, username, password, role),
    /** false when the user had that role already. */
    setRole: (username: string, role: Role) => setRole(deps, username, role),
    resetPassword: (username: string, password: string) => resetPassword(deps, username, password),
    removeUser: (username: string) => removeUser(deps, username),
    checkUserPassword: (username: string, password: string) => checkUserPassword(deps, username, password),
    /** The embedded broker's login: throttled like the token endpoint's, refused like a wrong password. */
    brokerLogin: (username: string, password: string, address: string | undefined) =>
      brokerLogin(deps, username, password, address),
    /** The operator screen's sign-in: throttled and recorded like the token endpoint's. */
    screenLogin: (username: string, password: string, address: string | undefined) =>
      screenLogin(deps, username, password, address),
    /** A seat's screen key offered: throttled and recorded like a password login (login-attempts.ts). */
    screenKeyAttempt: (seat: string, right: boolean, address: string | undefined) =>
      screenKeyAttempt(deps, seat, right, address),
    // supervisors at the seat (supervisors.ts)
    setSupervisorPin: (username: string, pin: string) => setSupervisorPin(deps, username, pin),
    newSupervisorBadge: (username: string) => newSupervisorBadge(deps, username),
    removeSupervisor: (username: string) => removeSupervisor(deps, username),
    listSupervisors: () => repo.listSupervisors(),
    /** The supervisor a screen action's badge or PIN names, if their role may perform `op`; throttled. */
    authoriseSupervisor: (
      at: { seat: string; address: string | undefined },
      credential: SupervisorCredential,
      op: Operation,
    ) => authoriseSupervisor(deps, at, credential, op),
    hasUser: (username: string): boolean => repo.findUser(username) !== undefined,
    listUsers: () => repo.listUsers(),
    /** Role refusals and revocations: logged and counted in one place each (access-events.ts). */
    access,
    /** Watches a screen stream or an MQTT client until its user is removed or changed. */
    track: (s: LiveSession) => deps.live.track(s),
    /** Ends the watched sessions of removed or changed users (app/revocation.part.ts). */
    sweepSessions: () => deps.live.sweep(),
    /** Changes when another process (the command line) committed to the database. */
    dataVersion: () => repo.dataVersion(),
    pruneExpired: () => repo.pruneExpired(opts.now()),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
