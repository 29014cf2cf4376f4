/**
 * One station's notifications, as the consumer sees them: the pure core (no IO, no clock of its own).
 * Live and replayed notifications are offered by sequence number; the ones that continue the delivered
 * prefix come back, in order, to be handed to the sink; early ones are held (bounded) until the gap
 * before them is filled. A gap is due for repair when it has lasted `gapGraceMs` (a seq jump) or when
 * the station's high-water mark (`lastNotificationSeq` in its retained `state/station`) stayed ahead of
 * what was delivered for `markGraceMs` without progress (the end of a burst, which nothing follows). See docs/mqtt.md,
 * "Gaps and the high-water mark".
 */

export interface Notification {
  seq: number;
  payload: string;
}

/** What a replay answer's page holds, as far as the stream is concerned (replay.ts reads the rest). */
export interface ReplayedPage {
  notifications: Notification[];
  /** Notifications too large for any answer: the station passes over them (docs/mqtt.md#replaying-notifications). */
  skipped?: { seq: number; bytes: number }[];
  last_seq: number;
  first_available_seq: number | null;
}

export interface StreamOptions {
  /** How many early notifications are held per station; beyond it they are dropped and replayed. */
  maxHeld: number;
  /** How long a seq jump may stay open before it is repaired (messages in flight settle first). */
  gapGraceMs: number;
  /** How long the high-water mark may stay ahead of the delivered prefix, without progress, before it counts as a gap. */
  markGraceMs: number;
}

export const DEFAULT_STREAM: StreamOptions = { maxHeld: 10_000, gapGraceMs: 500, markGraceMs: 3000 };

export interface StreamCounts {
  /** Offered again after they had been delivered or while held: dropped, never delivered twice. */
  duplicates: number;
  /** Early ones dropped because the hold was full (replay fetches them again). */
  overflow: number;
  /**
   * Sequence numbers the station no longer had when asked (pruned there), or could not send (too large
   * for an answer): skipped, never delivered.
   */
  unavailable: number;
}

export class StationStream {
  /** The highest seq delivered: every seq up to it was handed to the sink, in order. */
  private last: number;
  private readonly held = new Map<number, string>();
  private gapSince: number | null = null;
  private mark = 0;
  /** Since when the mark has been ahead of the delivered prefix with no progress; null when level. */
  private behindSince: number | null = null;
  readonly counts: StreamCounts = { duplicates: 0, overflow: 0, unavailable: 0 };

  constructor(
    delivered: number,
    private readonly opts: StreamOptions = DEFAULT_STREAM,
  ) {
    this.last = delivered;
  }

  get delivered(): number {
    return this.last;
  }

  get heldCount(): number {
    return this.held.size;
  }

  /** The newest seq the station is known to have produced (its mark, or the newest seen). */
  get newest(): number {
    return Math.max(this.mark, this.last, ...this.held.keys());
  }

  /** A notification, live or replayed; returns those that are now deliverable, in seq order. */
  offer(n: Notification, now: number): Notification[] {
    if (n.seq <= this.last || this.held.has(n.seq)) {
      this.counts.duplicates++;
      return [];
    }
    if (n.seq !== this.last + 1) {
      if (this.held.size >= this.opts.maxHeld) this.counts.overflow++;
      else this.held.set(n.seq, n.payload);
      this.gapSince ??= now;
      return [];
    }
    this.last = n.seq;
    return [n, ...this.drainHeld(now)];
  }

  /** The station's high-water mark, from its retained `state/station` or a replay answer. */
  markSeen(lastSeq: number, now: number): void {
    if (lastSeq > this.mark) this.mark = lastSeq;
    if (this.behindSince === null && this.mark > this.last) this.behindSince = now;
  }

  /**
   * The station cannot send anything before `firstAvailable` any more (its outbox was pruned): the
   * missing ones are counted and passed over; those held among them are still delivered, in order.
   */
  skipTo(firstAvailable: number, now: number): Notification[] {
    const run: Notification[] = [];
    if (this.held.size === 0 && firstAvailable > this.last + 1) {
      this.counts.unavailable += firstAvailable - 1 - this.last;
      this.last = firstAvailable - 1;
    }
    while (this.last + 1 < firstAvailable) {
      const seq = ++this.last;
      const payload = this.held.get(seq);
      if (payload === undefined) this.counts.unavailable++;
      else {
        this.held.delete(seq);
        run.push({ seq, payload });
      }
    }
    return [...run, ...this.drainHeld(now)];
  }

  /**
   * One page of a replay answer, taken in: the pruned prefix passed over (`first_available_seq`), then
   * its notifications and the ones listed as `skipped` (each too large for any answer, so the station
   * can never send it over MQTT) in seq order, the skipped ones counted as unavailable; then its mark.
   * Returns what is now deliverable, in order.
   */
  takePage(page: ReplayedPage, now: number): Notification[] {
    const run: Notification[] = [];
    if (page.first_available_seq !== null && page.first_available_seq > this.last + 1) {
      run.push(...this.skipTo(page.first_available_seq, now));
    }
    const skipped = new Set((page.skipped ?? []).map((x) => x.seq));
    const entries = [...page.notifications.map((n) => n.seq), ...skipped].sort((a, b) => a - b);
    const bySeq = new Map(page.notifications.map((n) => [n.seq, n]));
    for (const seq of entries) {
      const n = bySeq.get(seq);
      if (n) run.push(...this.offer(n, now));
      else if (seq === this.last + 1) run.push(...this.skipTo(seq + 1, now));
    }
    this.markSeen(page.last_seq, now);
    return run;
  }

  /**
   * Up to which seq a repair must fetch: to the first held one (the hole before it), or to the mark
   * when nothing is held. What follows comes live anyway; fetching it too would only be dropped.
   */
  get repairTarget(): number {
    if (this.held.size > 0) return Math.min(...this.held.keys()) - 1;
    return this.mark;
  }

  /** The seq to replay after when a gap is due for repair, or null. */
  repairDue(now: number): number | null {
    if (this.gapSince !== null && now - this.gapSince >= this.opts.gapGraceMs) return this.last;
    if (this.behindSince !== null && now - this.behindSince >= this.opts.markGraceMs) return this.last;
    return null;
  }

  /** A repair that could not finish (no answer, an error): the gap stays, the grace starts again. */
  repairFailed(now: number): void {
    if (this.gapSince !== null) this.gapSince = now;
    if (this.behindSince !== null) this.behindSince = now;
  }

  /** The held ones that now continue the delivered prefix, taken out in order. */
  private drainHeld(now: number): Notification[] {
    const run: Notification[] = [];
    for (let next = this.held.get(this.last + 1); next !== undefined; next = this.held.get(this.last + 1)) {
      this.held.delete(this.last + 1);
      this.last += 1;
      run.push({ seq: this.last, payload: next });
    }
    this.progressed(now);
    return run;
  }

  private progressed(now: number): void {
    this.gapSince = this.held.size > 0 ? now : null;
    // Progress restarts the grace: a station draining a backlog is behind its mark but not missing any.
    this.behindSince = this.mark > this.last ? now : null;
  }
}
