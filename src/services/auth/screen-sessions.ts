import { createHash, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import type { ScreenSessionFound, ScreenSessionsRepo } from "../../db/screen-sessions.repo.js";
import { forbiddenError, type Role, roleAllows } from "../../domain/roles.js";
import { writeFileDurably } from "../../durable-file.js";
import type { ForbiddenEvent } from "./access-events.js";
import type { AuthUser } from "./auth-deps.js";
import { writeKioskKeys } from "./kiosk-keys.js";
import { randomSecret } from "./password.js";
import type { SecurityRecorder } from "./security-log.js";

/**
 * Who may use the operator screen (docs/station.md#operator-screen). Each seat has a screen
 * key, generated at first start into `screen-keys.json` in the data folder (owner-readable only, beside
 * the initial credentials). The station box's own display opens `/screen/<seat>?key=<key>` once; the
 * key is exchanged for a session bound to that seat. Elsewhere a person signs in on the screen with an
 * API user's name and password for the same kind of session. Sessions are stored as sha256 digests and
 * renewed while used (sliding expiry); a new key ends the sessions of the old one, and a password
 * reset or removal of the user ends that user's.
 */
export const SCREEN_KEYS_FILE = "screen-keys.json";
/** A key session lives a month past its last use: the station box's display stays open for weeks. */
export const KEY_SESSION_MS = 30 * 24 * 3600_000;
/** A password session lives a shift past its last use … */
export const USER_SESSION_MS = 12 * 3600_000;
/** … and never longer than a day after the sign-in, however busy the screen (a forgotten sign-in). */
export const USER_SESSION_MAX_MS = 24 * 3600_000;

export interface ScreenSession {
  seat: string;
  kind: "key" | "user";
  token: string;
  /** The user a user session was signed in by (a key session has none: the station's own display). */
  user?: { id: number; username: string; role: Role };
  /** set when the session was opened or renewed now: send the cookie again with this lifetime */
  maxAgeSeconds?: number;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");
const keyId = (key: string) => sha256(`screen-key:${key}`).slice(0, 16);

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(sha256(a));
  const y = Buffer.from(sha256(b));
  return timingSafeEqual(x, y);
}

/** The user behind a session row: a user session's, none for a key session. */
function userOf(row: ScreenSessionFound): Pick<ScreenSession, "user"> {
  if (row.kind !== "user" || row.userId === null || row.username === null || row.role === null) return {};
  return { user: { id: row.userId, username: row.username, role: row.role } };
}

export interface ScreenSessionsDeps {
  repo: ScreenSessionsRepo;
  /** Checks a user's password: throttled and recorded like the token endpoint (login-attempts.ts). */
  login: (username: string, password: string, address: string | undefined) => Promise<AuthUser>;
  /** Throttles and records a screen key offered (login-attempts.ts `screenKeyAttempt`); none: unthrottled. */
  keyAttempt?: (seat: string, right: boolean, address: string | undefined) => Promise<boolean>;
  seats: readonly string[];
  now: () => number;
  security?: SecurityRecorder | undefined;
  /** Told of a user refused for their role (services/auth/access-events.ts). */
  onForbidden?: (e: ForbiddenEvent) => void;
}

/**
 * A user session ends with any change of its user (removal, new password, new role); a key session with
 * a new key for its seat.
 */
function current(row: ScreenSessionFound, key: string | undefined): boolean {
  if (row.kind === "user") return row.userChangedAt !== null && row.userChangedAt <= row.createdAt;
  return key !== undefined && row.keyId === keyId(key);
}

/**
 * What `screen-keys.json` holds; an empty or damaged file (a power cut before its writes were durable)
 * counts as none, said in the log: the keys can be made again, the old ones stop opening the screen.
 */
function storedKeys(file: string, log: Logger): Record<string, unknown> {
  if (!existsSync(file)) return {};
  try {
    const stored = JSON.parse(readFileSync(file, "utf8")) as unknown;
    if (typeof stored === "object" && stored !== null && !Array.isArray(stored))
      return stored as Record<string, unknown>;
  } catch {
    // damaged: made again below
  }
  log.error(
    { file },
    "operator screen keys file is empty or damaged: new keys are made and written; open each seat's screen with its new key",
  );
  return {};
}

/** The seats' keys from `screen-keys.json` into `keys`, the missing ones generated and written durably. */
function loadKeys(keys: Map<string, string>, seats: readonly string[], dataDir: string, log: Logger): string {
  const file = join(dataDir, SCREEN_KEYS_FILE);
  const stored = storedKeys(file, log);
  const made: string[] = [];
  for (const seat of seats) {
    const k = stored[seat];
    if (typeof k === "string" && k.length >= 16) keys.set(seat, k);
    else {
      keys.set(seat, randomSecret(24));
      made.push(seat);
    }
  }
  if (made.length) {
    const all = { ...stored, ...Object.fromEntries(keys) };
    writeFileDurably(file, `${JSON.stringify(all, null, 2)}\n`, 0o600);
    log.warn({ file, seats: made }, "operator screen keys written (owner-readable only)");
  } else log.info({ file }, "operator screen keys");
  return file;
}

export function createScreenSessions(deps: ScreenSessionsDeps) {
  const { repo, now } = deps;
  const keys = new Map<string, string>();

  function open(seat: string, kind: "key" | "user", user: ScreenSession["user"] | null): ScreenSession {
    const token = randomSecret(32);
    const ttl = kind === "key" ? KEY_SESSION_MS : USER_SESSION_MS;
    const key = keys.get(seat);
    repo.insert({
      tokenHash: sha256(token),
      seat,
      kind,
      userId: user?.id ?? null,
      keyId: kind === "key" && key ? keyId(key) : null,
      createdAt: now(),
      expiresAt: now() + ttl,
    });
    return { seat, kind, token, maxAgeSeconds: ttl / 1000, ...(user ? { user } : {}) };
  }

  return {
    /**
     * Reads the seats' keys from the data folder, generating the missing ones (file mode 0600); the log
     * says where, like the initial credentials.
     */
    ensureKeys: (dataDir: string, log: Logger, kioskDir?: string | null): string => {
      const file = loadKeys(keys, deps.seats, dataDir, log);
      // the kiosk user's copy, one group-readable file per seat (kiosk-keys.ts)
      if (kioskDir) writeKioskKeys(kioskDir, keys, log);
      return file;
    },

    /**
     * The station box's display: its seat's key opens a session, or null. A wrong key is throttled and
     * recorded per client address like a wrong password (`too_many_attempts` while locked).
     */
    async openWithKey(seat: string, key: string, address?: string): Promise<ScreenSession | null> {
      const k = keys.get(seat);
      const right = k !== undefined && sameText(k, key);
      if (!(deps.keyAttempt ? await deps.keyAttempt(seat, right, address) : right)) return null;
      return open(seat, "key", null);
    },

    /**
     * Sign-in with an API user's name and password from the client at `address`: one answer for every
     * failure, `too_many_attempts` once the user name or the address is locked, and a 403 for a role
     * not in `roles`.
     */
    async signIn(
      seat: string,
      name: string,
      password: string,
      roles: readonly Role[],
      address?: string,
    ): Promise<ScreenSession> {
      const { id, username, role } = await deps.login(name, password, address);
      if (roleAllows(roles, role)) return open(seat, "user", { id, username, role });
      deps.onForbidden?.({ username, role, via: "screen", what: `screen sign-in ${seat}`, address });
      throw forbiddenError(role, roles);
    },

    /** The session of `token` when it is valid for `seat`; renewed once half of its life has passed. */
    check(seat: string, token: string): ScreenSession | null {
      const row = repo.find(sha256(token));
      const t = now();
      if (!row || row.seat !== seat || row.expiresAt <= t || !current(row, keys.get(seat))) return null;
      const ttl = row.kind === "key" ? KEY_SESSION_MS : USER_SESSION_MS;
      const session: ScreenSession = { seat, kind: row.kind, token, ...userOf(row) };
      const until = row.kind === "user" ? Math.min(t + ttl, row.createdAt + USER_SESSION_MAX_MS) : t + ttl;
      if (row.expiresAt - t < ttl / 2 && until > row.expiresAt) {
        repo.renew(row.tokenHash, until);
        session.maxAgeSeconds = Math.round((until - t) / 1000);
      }
      return session;
    },

    /** Sign-out: the session ends at once. */
    end(token: string, address?: string): void {
      const row = repo.find(sha256(token));
      repo.remove(sha256(token));
      if (row)
        deps.security?.({
          kind: "token_revoked",
          channel: "screen",
          address,
          detail: { reason: "sign_out", seat: row.seat, session: row.kind },
        });
    },

    pruneExpired: (): number => repo.pruneExpired(now()),
  };
}

export type ScreenSessions = ReturnType<typeof createScreenSessions>;
