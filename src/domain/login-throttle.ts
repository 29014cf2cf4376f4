/**
 * Login throttling (README "Users and credentials", Login policy): failed logins are counted per
 * (user name, client address) pair and per client address across user names, each in a fixed window;
 * reaching a limit locks that pair or that address for a while. There is deliberately no lock per user
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
}

export const LOGIN_POLICY: LoginThrottlePolicy = {
  pairLimit: 5,
  addressLimit: 20,
  windowMs: 15 * 60_000,
  lockMs: 15 * 60_000,
  maxEntries: 10_000,
};

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
    const pair = this.count(pairKey(user, address), this.policy.pairLimit, now);
    const addr = this.count(addressKey(address), this.policy.addressLimit, now);
    return pair || addr;
  }

  /**
   * Counts a failure against the address only: one that told nothing about the password (a wrong
   * client credential gets the same answer whether the password was right or not). True when it
   * locked the address.
   */
  failAddress(address: string, now: number): boolean {
    return this.count(addressKey(address), this.policy.addressLimit, now);
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

  private count(key: string, limit: number, now: number): boolean {
    let c = this.counters.get(key);
    if (!c || this.expired(c, now)) {
      this.counters.delete(key);
      this.makeRoom(now);
      c = { failures: 0, since: now, lockedUntil: 0 };
      this.counters.set(key, c);
    }
    c.failures += 1;
    if (c.failures < limit || c.lockedUntil > now) return false;
    c.lockedUntil = now + this.policy.lockMs;
    return true;
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
