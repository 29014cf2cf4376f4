/**
 * Atop ABLEPick AT500/AT400 controller, CCB frames over TCP (or RS-232) [SRC 30, 31]. Light commands
 * become display / LED / colour frames for the tag at the bin's node address; the controller's
 * unsolicited frames give the confirm and shortage buttons (both 14- and 15-byte forms, parsed by
 * length). Event `0A` means the TAG did not acknowledge the controller, not that the link failed
 * [SRC 30, pitfall 17]: the wanted command is sent again up to `timing.retries` times. Colours are
 * set without the EEPROM flag, which would wear the tag out if used per pick [SRC 30].
 */

import { concatBytes } from "../../codecs/bytes.js";
import type { LightCommand } from "../../hub.types.js";
import { atopCcbOptions } from "../../profiles/codec-options.js";
import type { PtlProfile } from "../../profiles/firmware-profile.schema.js";
import {
  type AdapterContext,
  type DeviceAdapter,
  DeviceUnavailableError,
  errorText,
  FALLBACK_TIMING,
  type MakeLink,
} from "../adapter.types.js";
import { AtopCcbEncoder } from "./atop-ccb.codec.js";
import { AtopCcbParser, type AtopEvent } from "./atop-ccb.parser.js";

/** The frames (sent as one write) that make tag `node` show `cmd`. */
export function atopFrames(
  profile: PtlProfile,
  encoder: AtopCcbEncoder,
  node: number,
  cmd: LightCommand,
): Uint8Array {
  if (cmd.mode === "off") return concatBytes([encoder.clear(node), encoder.led(node, false)]);
  const colors = profile.ptl.capabilities.colors;
  const colour = cmd.mode === "error" ? "red" : cmd.color;
  const code = colour === undefined ? undefined : colors[colour];
  const frames: Uint8Array[] = typeof code === "number" ? [encoder.colour(node, code)] : [];
  if (cmd.mode === "error") frames.push(encoder.flashLed(node));
  else if (cmd.quantity !== undefined) {
    const max = 10 ** profile.ptl.capabilities.digits - 1;
    const text = String(Math.min(max, Math.max(0, Math.trunc(cmd.quantity))));
    frames.push(encoder.display(node, text, { flash: cmd.blink === true }));
  } else frames.push(cmd.blink ? encoder.flashLed(node) : encoder.led(node, true));
  return concatBytes(frames);
}

export function createAtopCcbAdapter(
  ctx: AdapterContext,
  profile: PtlProfile,
  makeLink: MakeLink,
): DeviceAdapter {
  const options = atopCcbOptions(profile);
  const encoder = new AtopCcbEncoder(options.encoder);
  const parser = new AtopCcbParser(options.parser);
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
    const node = ev.node;
    switch (ev.kind) {
      case "confirm":
      case "shortage":
        if (node === null) {
          ctx.status.error(`${ev.kind} without a node`);
          return;
        }
        ctx.emit({
          type: "button",
          deviceId: ctx.deviceId,
          address: String(node),
          button: ev.kind,
          at: ctx.now(),
        });
        return;
      case "timeout": {
        const n = node ?? -1;
        ctx.status.error(`tag ${n} did not acknowledge`);
        const cmd = wanted.get(String(n));
        const count = resent.get(n) ?? 0;
        if (cmd && count < retries) {
          resent.set(n, count + 1);
          write(cmd).catch(() => {});
        }
        return;
      }
      case "malfunction":
      case "illegal-command":
      case "buttons-locked":
      case "special":
        ctx.status.error(`${ev.kind}${node === null ? "" : ` at tag ${node}`}`);
        return;
      default:
        return; // status lists, reset-ok, stock quantities: nothing the station acts on
    }
  }

  function write(cmd: LightCommand): Promise<void> {
    return link.write(atopFrames(profile, encoder, Number(cmd.address), cmd));
  }

  return {
    start: () => link.start(),
    stop: () => link.stop(),
    async light(cmd) {
      wanted.set(cmd.address, cmd);
      resent.delete(Number(cmd.address));
      if (!link.isOpen) throw new DeviceUnavailableError(ctx.deviceId, `${link.path} is not connected`);
      try {
        await write(cmd);
      } catch (e) {
        throw new DeviceUnavailableError(ctx.deviceId, errorText(e));
      }
    },
  };
}
