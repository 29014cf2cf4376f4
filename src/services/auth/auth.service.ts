/**
 * The auth aggregate's door (spec: Authentication; docs/architecture.md, auth): the token endpoint, bearer
 * tokens, API users and the client credential, and the credentials made on the first start. Use cases
 * are functions of their dependencies and input; `createAuthService` binds them. Callers import this
 * module only.
 */
import type { AuthRepo } from "../../db/auth.repo.js";
import type { AuthDeps, AuthOptions } from "./auth-deps.js";
import { authenticate, type GrantRequest, grant } from "./auth-tokens.js";
import {
  addUser,
  checkUserPassword,
  hasClientSecret,
  removeUser,
  resetPassword,
  setClientSecret,
} from "./auth-users.js";
import { brokerLogin, createLoginAttempts, type LoginOrigin, screenLogin } from "./login-attempts.js";
import { hasScrapeToken, isScrapeToken, setScrapeToken } from "./scrape-token.js";

export type { AuthDeps, AuthOptions, AuthUser } from "./auth-deps.js";
export {
  authenticate,
  type GrantRequest,
  grant,
  SCOPE,
  TOKEN_CACHE_MS,
  type TokenResponse,
} from "./auth-tokens.js";
export { addUser, hasClientSecret, removeUser, resetPassword, setClientSecret } from "./auth-users.js";
export { CREDENTIALS_FILE, type CredentialSettings, ensureCredentials } from "./credentials.js";
export { type LoginOrigin, UNKNOWN_ADDRESS } from "./login-attempts.js";

export function createAuthService(repo: AuthRepo, opts: AuthOptions) {
  const deps: AuthDeps = {
    ...opts,
    repo,
    recent: new Map(),
    recentVersion: { value: repo.dataVersion() },
    attempts: createLoginAttempts(opts.log, opts.metrics),
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
    addUser: (username: string, password: string) => addUser(deps, username, password),
    resetPassword: (username: string, password: string) => resetPassword(deps, username, password),
    removeUser: (username: string) => removeUser(deps, username),
    checkUserPassword: (username: string, password: string) => checkUserPassword(deps, username, password),
    /** The embedded broker's login: throttled like the token endpoint's, refused like a wrong password. */
    brokerLogin: (username: string, password: string, address: string | undefined) =>
      brokerLogin(deps, username, password, address),
    /** The operator screen's sign-in: throttled and recorded like the token endpoint's. */
    screenLogin: (username: string, password: string, address: string | undefined) =>
      screenLogin(deps, username, password, address),
    hasUser: (username: string): boolean => repo.findUser(username) !== undefined,
    listUsers: () => repo.listUsers(),
    pruneExpired: () => repo.pruneExpired(opts.now()),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
