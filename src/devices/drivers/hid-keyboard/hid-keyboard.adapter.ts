/**
 * Scanner in USB HID keyboard ("wedge") mode through node-hid: boot-keyboard reports go to the decoder
 * with their arrival time. Wedge scanners may end a message by silence, so the adapter ticks the
 * decoder when it says a message is due [§3.1 step 8]. A message cut by an unplug is dropped (the
 * decoder is reset; hid-link.ts reopens the device).
 */
import { scanEvent } from "../../codecs/scan-event.js";
import type { HidLink, HidLinkEvents } from "../../link/hid-link.js";
import type { AdapterContext, DeviceAdapter } from "../adapter.types.js";
import type { HidKeyboardEvent } from "./hid-keyboard.codec.js";
import { type HidKeyboardProfile, hidKeyboardCodec } from "./hid-keyboard.profile.js";

export function createHidKeyboardAdapter(
  ctx: AdapterContext,
  profile: HidKeyboardProfile,
  makeLink: (events: HidLinkEvents) => HidLink,
): DeviceAdapter {
  const { decoder, interpret } = hidKeyboardCodec(profile);
  let idle: NodeJS.Timeout | undefined;

  function decoded(events: HidKeyboardEvent[]): void {
    for (const ev of events) {
      if (ev.type === "parse-error") ctx.status.error(ev.reason);
      else ctx.emit(scanEvent(ctx.deviceId, ev.text, interpret, ctx.now()));
    }
  }

  function armIdle(): void {
    if (idle) clearTimeout(idle);
    idle = undefined;
    const due = decoder.deadline();
    if (due === null) return;
    idle = setTimeout(
      () => {
        idle = undefined;
        decoded(decoder.tick(ctx.now()));
      },
      Math.max(0, due - ctx.now()),
    );
  }

  const link = makeLink({
    onReport: (report) => {
      ctx.status.seen();
      decoded(decoder.push(report, ctx.now()));
      armIdle();
    },
    onOpen: () => ctx.status.connected(),
    onDown: (reason) => {
      decoder.reset();
      ctx.status.disconnected(reason);
    },
    onRetry: () => ctx.status.reconnecting(),
    onInitError: (reason) => ctx.status.error(reason),
  });

  return {
    start: () => link.start(),
    async stop() {
      if (idle) clearTimeout(idle);
      await link.stop();
    },
  };
}
