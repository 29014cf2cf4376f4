/**
 * The retry loop every link shares: try to connect; when that fails or the link later drops, wait the
 * next delay of the profile's `timing.reconnectBackoffMs` (the last one repeats) and try again. A
 * successful connection resets the delays. One attempt at a time; `stop()` ends it for good.
 */
import { errorText } from "./byte-link.js";

export interface ReconnectOptions {
  delaysMs: readonly number[];
  /** Opens the link; resolves once it is up, rejects if it could not be opened. */
  connect(): Promise<void>;
  /** Called when an attempt fails (the link is still down). */
  failed(error: unknown): void;
  /** Called before each retry (not before the first attempt). */
  retrying?(): void;
}

export class Reconnector {
  private attempt = 0;
  private timer: NodeJS.Timeout | undefined;
  private busy = false;
  /** The link dropped while an attempt was still settling: retry once it has. */
  private lostWhileBusy = false;
  private stopped = true;

  constructor(private readonly opts: ReconnectOptions) {
    if (opts.delaysMs.length === 0) throw new RangeError("Reconnector: delaysMs must not be empty");
  }

  start(): void {
    this.stopped = false;
    this.attempt = 0;
    void this.tryNow();
  }

  /** The link went down: schedule the next attempt. */
  lost(): void {
    if (this.busy) this.lostWhileBusy = true;
    if (this.stopped || this.busy || this.timer) return;
    const delays = this.opts.delaysMs;
    const delay = delays[Math.min(this.attempt, delays.length - 1)] ?? 1000;
    this.attempt++;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.opts.retrying?.();
      void this.tryNow();
    }, delay);
    this.timer.unref?.();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  get running(): boolean {
    return !this.stopped;
  }

  private async tryNow(): Promise<void> {
    if (this.stopped || this.busy) return;
    this.busy = true;
    this.lostWhileBusy = false;
    try {
      await this.opts.connect();
      this.attempt = 0;
      this.busy = false;
      if (this.lostWhileBusy) this.lost();
    } catch (e) {
      this.busy = false;
      if (this.stopped) return;
      this.opts.failed(e);
      this.lost();
    }
  }
}

/**
 * A link's loop (serial, TCP, HID): its profile's delays, each failed attempt told as the link down
 * with why, each retry told as it starts.
 */
export function linkReconnector(
  link: { backoffMs: readonly number[]; onDown(reason: string): void; onRetry?(): void },
  connect: () => Promise<void>,
): Reconnector {
  return new Reconnector({
    delaysMs: link.backoffMs,
    connect,
    failed: (e) => link.onDown(errorText(e)),
    retrying: () => link.onRetry?.(),
  });
}
