/**
 * Scanner in HID POS mode (usage page 0x8C) through node-hid: each input report goes to the decoder,
 * which reassembles messages of several reports; the symbology comes from the AIM id, else from the
 * vendor code id. A message cut by an unplug is counted, never emitted half: the scanner sends the
 * next one whole (hid-link.ts reopens the device).
 */
import { scanEvent } from "../../codecs/scan-event.js";
import type { HidLink, HidLinkEvents } from "../../link/hid-link.js";
import type { AdapterContext, DeviceAdapter } from "../adapter.types.js";
import type { HidPosEvent } from "./hid-pos.codec.js";
import { type HidPosProfile, hidPosCodec } from "./hid-pos.profile.js";

export function createHidPosAdapter(
  ctx: AdapterContext,
  profile: HidPosProfile,
  makeLink: (events: HidLinkEvents) => HidLink,
): DeviceAdapter {
  const { decoder, interpret, codeNames } = hidPosCodec(profile);

  function decoded(events: HidPosEvent[]): void {
    for (const ev of events) {
      if (ev.type === "parse-error") ctx.status.error(ev.reason);
      else if (ev.truncated) ctx.status.error(`a scan lost its end (${ev.reports} reports)`);
      else {
        const vendor = ev.codeId === null ? undefined : codeNames[ev.codeId];
        ctx.emit(scanEvent(ctx.deviceId, ev.text, { ...interpret, aim: ev.aim }, ctx.now(), vendor));
      }
    }
  }

  const link = makeLink({
    onReport: (report) => {
      ctx.status.seen();
      decoded(decoder.push(report));
    },
    onOpen: () => ctx.status.connected(),
    onDown: (reason) => {
      if (decoder.flush().length > 0) ctx.status.error("a scan was cut by the disconnect");
      ctx.status.disconnected(reason);
    },
    onRetry: () => ctx.status.reconnecting(),
    onInitError: (reason) => ctx.status.error(reason),
  });
  return { start: () => link.start(), stop: () => link.stop() };
}
