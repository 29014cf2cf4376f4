/**
 * One USB HID device kept open (a scanner in HID POS or keyboard-wedge mode), the HID counterpart of
 * serial-link.ts. The device is found by enumeration on every (re)open, matched by vendor/product/usage
 * from the station file, never by a stored /dev/hidrawN path, which changes on replug [SRC 1, 14].
 * node-hid has no unplug event: an unplug is an `error` after which reading stops [SRC 13], so: close,
 * back off, enumerate again, reopen, and send the profile's init feature reports again (e.g.
 * Honeywell's output redirection [SRC 9]). The data listener is attached before anything else because
 * node-hid does not buffer reports without one [SRC 1].
 */
import { fromHex } from "../codecs/bytes.js";
import { errorText } from "./byte-link.js";
import { type HidBackend, type HidHandle, type HidMatch, matchesHid } from "./hid-backend.js";
import { linkReconnector, type Reconnector } from "./reconnect.js";

const hex4 = (n: number) => n.toString(16).padStart(4, "0");

export function describeHid(m: HidMatch): string {
  return `hid ${hex4(m.vendorId)}:${m.productId === undefined ? "*" : hex4(m.productId)}`;
}

export interface HidLinkEvents {
  onReport(report: Uint8Array): void;
  onOpen(): void;
  /** The device was unplugged or could not be opened. */
  onDown(reason: string): void;
  onRetry(): void;
  /** An init feature report was refused; the device stays open. */
  onInitError(reason: string): void;
}

export interface HidLinkOptions extends HidLinkEvents {
  match: HidMatch;
  backend: HidBackend;
  backoffMs: readonly number[];
  /** Sent after every open: lower-case hex bytes, first byte = report id (profile `initFeatureReports`). */
  initFeatureReports: readonly string[];
}

export class HidLink {
  private handle: HidHandle | undefined;
  private readonly reconnect: Reconnector;

  constructor(private readonly opts: HidLinkOptions) {
    this.reconnect = linkReconnector(opts, () => this.open());
  }

  get path(): string {
    return describeHid(this.opts.match);
  }

  start(): void {
    this.reconnect.start();
  }

  async stop(): Promise<void> {
    this.reconnect.stop();
    const h = this.handle;
    this.handle = undefined;
    if (h) await drop(h);
  }

  private lost(h: HidHandle, err: Error): void {
    if (this.handle !== h) return;
    this.handle = undefined;
    void drop(h);
    this.opts.onDown(err.message);
    this.reconnect.lost();
  }

  private async open(): Promise<void> {
    const { backend, match } = this.opts;
    const found = (await backend.devices()).find((d) => matchesHid(d, match));
    if (!found?.path) throw new Error(`no HID device matches ${describeHid(match)}`);
    const h = await backend.open(found.path);
    if (!this.reconnect.running) {
      await drop(h);
      throw new Error("stopped");
    }
    this.handle = h;
    h.on("data", (report: Buffer) => {
      if (this.handle === h) this.opts.onReport(new Uint8Array(report));
    });
    h.on("error", (err: Error) => this.lost(h, err));
    for (const r of this.opts.initFeatureReports) {
      try {
        await h.sendFeatureReport(Array.from(fromHex(r)));
      } catch (e) {
        this.opts.onInitError(`init report ${r}: ${errorText(e)}`);
      }
    }
    if (this.handle === h) this.opts.onOpen();
  }
}

async function drop(h: HidHandle): Promise<void> {
  h.removeAllListeners();
  h.on("error", () => {});
  try {
    await h.close();
  } catch {
    // closing an unplugged device fails; it is gone either way
  }
}
