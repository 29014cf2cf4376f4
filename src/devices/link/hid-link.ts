/**
 * Scanner on USB HID, HID POS (usage page 0x8C) or keyboard-wedge mode, through node-hid. The device is
 * found by enumeration on every (re)open, matched by vendor/product/usage from the station file, never by
 * a stored /dev/hidrawN path, which changes on replug [SRC 1, 14]. node-hid has no unplug event: an unplug
 * is an `error` after which reading stops [SRC 13], so: close, back off, enumerate again, reopen, and send
 * the profile's init feature reports again (e.g. Honeywell's output redirection [SRC 9]). The data listener
 * is attached before anything else because node-hid does not buffer reports without one [SRC 1].
 */
import { fromHex } from "../codecs/bytes.js";
import { scanEvent } from "../codecs/scan-event.js";
import { type AdapterContext, type DeviceAdapter, errorText } from "../drivers/adapter.types.js";
import { HidKeyboardDecoder, type HidKeyboardEvent } from "../drivers/hid-keyboard/hid-keyboard.codec.js";
import { HidPosDecoder, type HidPosEvent } from "../drivers/hid-pos/hid-pos.codec.js";
import { hidKeyboardOptions, hidPosLayout, scanInterpretOptions } from "../profiles/codec-options.js";
import type { ScannerProfile } from "../profiles/firmware-profile.schema.js";
import { type HidBackend, type HidHandle, type HidMatch, matchesHid } from "./hid-backend.js";
import { Reconnector } from "./reconnect.js";

const hex4 = (n: number) => n.toString(16).padStart(4, "0");

export function describeHid(m: HidMatch): string {
  return `hid ${hex4(m.vendorId)}:${m.productId === undefined ? "*" : hex4(m.productId)}`;
}

export interface HidScannerOptions {
  match: HidMatch;
  backend: HidBackend;
  backoffMs: readonly number[];
}

export function createHidScannerAdapter(
  ctx: AdapterContext,
  profile: ScannerProfile,
  seat: string | null,
  opts: HidScannerOptions,
): DeviceAdapter {
  const interpret = scanInterpretOptions(profile);
  const codeNames = profile.scanner.vendorCodeIds ?? {};
  const pos = profile.scanner.mode === "hid-pos" ? new HidPosDecoder(hidPosLayout(profile)) : null;
  const keyboard = pos === null ? new HidKeyboardDecoder(hidKeyboardOptions(profile)) : null;
  const init = profile.transport.type === "hid" ? (profile.transport.initFeatureReports ?? []) : [];
  let handle: HidHandle | undefined;
  let idle: NodeJS.Timeout | undefined;

  const reconnect = new Reconnector({
    delaysMs: opts.backoffMs,
    connect: open,
    failed: (e) => ctx.status.disconnected(errorText(e)),
    retrying: () => ctx.status.reconnecting(),
  });

  function decoded(events: Array<HidPosEvent | HidKeyboardEvent>): void {
    for (const ev of events) {
      if (ev.type === "parse-error") ctx.status.error(ev.reason);
      else if ("truncated" in ev && ev.truncated)
        ctx.status.error(`a scan lost its end (${ev.reports} reports)`);
      else if ("aim" in ev) {
        const vendor = ev.codeId === null ? undefined : codeNames[ev.codeId];
        ctx.emit(scanEvent(ctx.deviceId, seat, ev.text, { ...interpret, aim: ev.aim }, ctx.now(), vendor));
      } else ctx.emit(scanEvent(ctx.deviceId, seat, ev.text, interpret, ctx.now()));
    }
  }

  /** Wedge scanners may end a message by silence: tick the decoder when it says so [§3.1 step 8]. */
  function armIdle(): void {
    if (idle) clearTimeout(idle);
    idle = undefined;
    const due = keyboard?.deadline() ?? null;
    if (due === null) return;
    idle = setTimeout(
      () => {
        idle = undefined;
        if (keyboard) decoded(keyboard.tick(ctx.now()));
      },
      Math.max(0, due - ctx.now()),
    );
  }

  function onReport(report: Buffer): void {
    ctx.status.seen();
    const bytes = new Uint8Array(report);
    if (pos) decoded(pos.push(bytes));
    else if (keyboard) {
      decoded(keyboard.push(bytes, ctx.now()));
      armIdle();
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

  function lost(h: HidHandle, err: Error): void {
    if (handle !== h) return;
    handle = undefined;
    // A message cut by the unplug is not a scan; the scanner sends the next one whole.
    if ((pos?.flush().length ?? 0) > 0) ctx.status.error("a scan was cut by the disconnect");
    keyboard?.reset();
    void drop(h);
    ctx.status.disconnected(err.message);
    reconnect.lost();
  }

  async function open(): Promise<void> {
    const found = (await opts.backend.devices()).find((d) => matchesHid(d, opts.match));
    if (!found?.path) throw new Error(`no HID device matches ${describeHid(opts.match)}`);
    const h = await opts.backend.open(found.path);
    if (!reconnect.running) {
      await drop(h);
      throw new Error("stopped");
    }
    handle = h;
    h.on("data", (report: Buffer) => {
      if (handle === h) onReport(report);
    });
    h.on("error", (err: Error) => lost(h, err));
    for (const r of init) {
      try {
        await h.sendFeatureReport(Array.from(fromHex(r)));
      } catch (e) {
        ctx.status.error(`init report ${r}: ${errorText(e)}`);
      }
    }
    if (handle === h) ctx.status.connected();
  }

  return {
    start: () => reconnect.start(),
    async stop() {
      reconnect.stop();
      if (idle) clearTimeout(idle);
      const h = handle;
      handle = undefined;
      if (h) await drop(h);
    },
  };
}
