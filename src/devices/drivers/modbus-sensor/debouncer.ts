/**
 * Debounce of one polled input: a new level counts only once it has been read the same way for
 * `debounceMs` (the profile's channel setting) [ASSUMPTION §2.5: bounce times are per site]. The first
 * reading only sets the baseline: an edge is a change, and nothing changed before the first look. The
 * baseline survives a reconnect, so a bin that changed while the line was down gives its edge at the
 * first reading after. Pure: time is an input.
 */
export class Debouncer {
  private stable: boolean | null = null;
  private candidate: boolean | null = null;
  private since = 0;

  constructor(private readonly debounceMs: number) {}

  /** Feeds one reading; returns the new stable level when it changed, else null. */
  update(level: boolean, nowMs: number): boolean | null {
    if (this.stable === null) {
      this.stable = level;
      return null;
    }
    if (level === this.stable) {
      this.candidate = null;
      return null;
    }
    if (this.candidate !== level) {
      this.candidate = level;
      this.since = nowMs;
    }
    if (nowMs - this.since < this.debounceMs) return null;
    this.stable = level;
    this.candidate = null;
    return level;
  }

  get level(): boolean | null {
    return this.stable;
  }
}
