/**
 * Atop ABLEPick AT500/AT400 controller, CCB frames over TCP (or RS-232) [SRC 30, 31]. Light commands
 * become display / LED / colour frames for the tag at the bin's node address; the controller's
 * unsolicited frames give the confirm and shortage buttons (both 14- and 15-byte forms, parsed by
 * length). Event `0A` means the TAG did not acknowledge the controller, not that the link failed
 * [SRC 30, pitfall 17]: the wanted command is sent again up to `timing.retries` times. Colours are
 * set without the EEPROM flag, which would wear the tag out if used per pick [SRC 30].
 */

import type { LightCommand } from "../../hub.types.js";
import { errorText, type MakeLink } from "../../link/byte-link.js";
import { readLightAddress } from "../../profiles/light-address.js";
import {
  type AdapterContext,
  type DeviceAdapter,
  DeviceUnavailableError,
  FALLBACK_TIMING,
} from "../adapter.types.js";
import { type AtopEvent, atopMeaning } from "./atop-ccb.parser.js";
import { type AtopCcbProfile, atopCcbCodec, atopFrames } from "./atop-ccb.profile.js";

export function createAtopCcbAdapter(
  ctx: AdapterContext,
  profile: AtopCcbProfile,
  makeLink: MakeLink,
): DeviceAdapter {
  const { encoder, parser } = atopCcbCodec(profile);
  const nodeOf = (address: string) => readLightAddress(profile.ptl.addressing, address);
  const retries = profile.timing?.retries ?? FALLBACK_TIMING.retries;
  const wanted = new Map<string, LightCommand>();
  /** Node -> times its wanted command was re-sent after a tag timeout. */
  const resent = new Map<number, number>();

  const link = makeLink({
    onData: (chunk) => {
      ctx.status.seen();
      for (const ev of parser.push(chunk)) {
        if (ev.type === "parse-error") ctx.status.error(`garbage (${ev.bytes.length} bytes)`);
        else event(ev);
      }
    },
    onOpen: () => {
      ctx.status.connected();
      for (const cmd of wanted.values()) write(cmd).catch(() => {});
    },
    onDown: (reason) => {
      parser.reset();
      ctx.status.disconnected(reason);
    },
    onRetry: () => ctx.status.reconnecting(),
  });

  function event(ev: AtopEvent): void {
    const m = atopMeaning(ev);
    if (m?.kind === "fault") ctx.status.error(m.reason);
    else if (m?.kind === "button") {
      const { address, button } = m;
      ctx.emit({ type: "button", deviceId: ctx.deviceId, address, button, at: ctx.now() });
    } else if (m?.kind === "tag-timeout") resend(m.node);
  }

  /** The tag did not acknowledge: its wanted command again, up to `timing.retries` times. */
  function resend(node: number): void {
    ctx.status.error(`tag ${node} did not acknowledge`);
    const cmd = wanted.get(String(node));
    const count = resent.get(node) ?? 0;
    if (cmd && count < retries) {
      resent.set(node, count + 1);
      write(cmd).catch(() => {});
    }
  }

  function write(cmd: LightCommand): Promise<void> {
    return link.write(atopFrames(profile, encoder, nodeOf(cmd.address).numbers[0], cmd));
  }

  return {
    start: () => link.start(),
    stop: () => link.stop(),
    async light(cmd) {
      const node = nodeOf(cmd.address);
      wanted.set(node.canonical, cmd);
      resent.delete(node.numbers[0]);
      if (!link.isOpen) throw new DeviceUnavailableError(ctx.deviceId, `${link.path} is not connected`);
      try {
        await write(cmd);
      } catch (e) {
        throw new DeviceUnavailableError(ctx.deviceId, errorText(e));
      }
    },
  };
}
