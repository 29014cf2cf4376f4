/**
 * Login throttling (docs/security.md#login-policy): failed logins are counted per
 * (user name, client address) pair and per client address across user names, each in a fixed window.
 * Failures are first answered at once, then with a growing delay (the caller waits `delayMs` before it
 * answers, without holding anyone else up), and reaching a limit locks that pair or that address for a
 * while. There is deliberately no lock per user
 * name alone: an attacker hammering a user name from one address must not lock the real user out of
 * their own address. Pure: the caller passes `now` (ms); no clock, no IO.
 */

export interface LoginThrottlePolicy {
  /** Failures of one user name from one address within `windowMs` that lock the pair. */
  pairLimit: number;
  /** Failures from one address, whatever the user names, within `windowMs` that lock the address. */
  addressLimit: number;
  windowMs: number;
  lockMs: number;
  /** At most this many counters are kept; expired ones go first, then the oldest. */
  maxEntries: number;
  /** The pair's failure from which on each failed answer is delayed … */
  pairDelayFrom: number;
  /** … and the address's. */
  addressDelayFrom: number;
  /** The first delay; it doubles with each further failure … */
  delayMs: number;
  /** … up to this. */
  maxDelayMs: number;
}

export const LOGIN_POLICY: LoginThrottlePolicy = {
  pairLimit: 5,
  addressLimit: 20,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  maxEntries: 10_000,
  pairDelayFrom: 3,
  addressDelayFrom: 10,
  delayMs: 1000,
  maxDelayMs: 4000,
};

/** What a counted failure means for its answer. */
export interface FailureOutcome {
  /** What this failure locked, if anything: the pair, the address, or both at once. */
  locked: "pair" | "address" | "both" | false;
  /** How long to wait before answering it (0: at once). */
  delayMs: number;
}

/** The delay of the `failures`-th failure against a threshold `from` (pure; docs/security.md#login-policy). */
export function failureDelayMs(policy: LoginThrottlePolicy, failures: number, from: number): number {
  if (failures < from) return 0;
  return Math.min(policy.maxDelayMs, policy.delayMs * 2 ** (failures - from));
}

interface Counter {
  failures: number;
  since: number;
  lockedUntil: number;
}

export type LoginVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

const pairKey = (user: string, address: string) => `u:${address}\u0000${user}`;
const addressKey = (address: string) => `a:${address}`;

export class LoginThrottle {
  private readonly counters = new Map<string, Counter>();

  constructor(readonly policy: LoginThrottlePolicy = LOGIN_POLICY) {}

  /** May this user name try from this address now? */
  check(user: string, address: string, now: number): LoginVerdict {
    const until = Math.max(
      this.lockedUntil(pairKey(user, address), now),
      this.lockedUntil(addressKey(address), now),
    );
    if (until <= now) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
  }

  /** Counts a failure; true when it locked the pair or the address. */
  fail(user: string, address: string, now: number): boolean {
    return this.failure(user, address, now).locked !== false;
  }

  /** Counts a failure: what it locked, and how long its answer waits. */
  failure(user: string, address: string, now: number): FailureOutcome {
    const p = this.policy;
    const pair = this.count(pairKey(user, address), p.pairLimit, now);
    const addr = this.count(addressKey(address), p.addressLimit, now);
    return {
      locked: pair.locked && addr.locked ? "both" : pair.locked ? "pair" : addr.locked ? "address" : false,
      delayMs: Math.max(
        failureDelayMs(p, pair.failures, p.pairDelayFrom),
        failureDelayMs(p, addr.failures, p.addressDelayFrom),
      ),
    };
  }

  /**
   * Counts a failure against the address only: one that told nothing about the password (a wrong
   * client credential gets the same answer whether the password was right or not). True when it
   * locked the address.
   */
  failAddress(address: string, now: number): boolean {
    return this.addressFailure(address, now).locked !== false;
  }

  /** `failAddress` with what it locked and how long its answer waits. */
  addressFailure(address: string, now: number): FailureOutcome {
    const p = this.policy;
    const addr = this.count(addressKey(address), p.addressLimit, now);
    return {
      locked: addr.locked ? "address" : false,
      delayMs: failureDelayMs(p, addr.failures, p.addressDelayFrom),
    };
  }

  /** A success forgets the pair's failures (the address's stay: they may be other users'). */
  succeed(user: string, address: string): void {
    this.counters.delete(pairKey(user, address));
  }

  /** Counters held (for tests and the memory bound). */
  get size(): number {
    return this.counters.size;
  }

  private lockedUntil(key: string, now: number): number {
    const c = this.counters.get(key);
    return c && c.lockedUntil > now ? c.lockedUntil : 0;
  }

  private count(key: string, limit: number, now: number): { failures: number; locked: boolean } {
    let c = this.counters.get(key);
    if (!c || this.expired(c, now)) {
      this.counters.delete(key);
      this.makeRoom(now);
      c = { failures: 0, since: now, lockedUntil: 0 };
      this.counters.set(key, c);
    }
    c.failures += 1;
    if (c.failures < limit || c.lockedUntil > now) return { failures: c.failures, locked: false };
    c.lockedUntil = now + this.policy.lockMs;
    return { failures: c.failures, locked: true };
  }

  /** Neither counting within its window nor locked any more. */
  private expired(c: Counter, now: number): boolean {
    return c.lockedUntil <= now && now - c.since >= this.policy.windowMs;
  }

  private makeRoom(now: number): void {
    if (this.counters.size < this.policy.maxEntries) return;
    for (const [key, c] of this.counters) if (this.expired(c, now)) this.counters.delete(key);
    // Still full: the oldest counters go (Map keeps insertion order).
    for (const key of this.counters.keys()) {
      if (this.counters.size < this.policy.maxEntries) break;
      this.counters.delete(key);
    }
  }
}
