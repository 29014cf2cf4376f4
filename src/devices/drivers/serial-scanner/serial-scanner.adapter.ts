/**
 * Scanner in USB-CDC / RS-232 mode: lines of `prefix + data + suffix` on a serial port [SRC 19]. The
 * port is reopened after an unplug (the by-id path comes back with the device [SRC 68]); a line cut by
 * the unplug is dropped and counted, never emitted half.
 */

import { scanEvent } from "../../codecs/scan-event.js";
import type { MakeLink } from "../../link/byte-link.js";
import type { AdapterContext, DeviceAdapter } from "../adapter.types.js";
import { type SerialScannerProfile, serialScannerCodec } from "./serial-scanner.profile.js";

export function createSerialScannerAdapter(
  ctx: AdapterContext,
  profile: SerialScannerProfile,
  makeLink: MakeLink,
): DeviceAdapter {
  const { parser, interpret } = serialScannerCodec(profile);
  const link = makeLink({
    onData: (chunk) => {
      ctx.status.seen();
      for (const ev of parser.push(chunk)) {
        if (ev.type === "parse-error") ctx.status.error(`${ev.reason} (${ev.bytes.length} bytes)`);
        else ctx.emit(scanEvent(ctx.deviceId, ev.text, interpret, ctx.now()));
      }
    },
    onOpen: () => ctx.status.connected(),
    onDown: (reason) => {
      if (parser.pending().length > 0) ctx.status.error("a scan was cut by the disconnect");
      parser.reset();
      ctx.status.disconnected(reason);
    },
    onRetry: () => ctx.status.reconnecting(),
  });
  return { start: () => link.start(), stop: () => link.stop() };
}
