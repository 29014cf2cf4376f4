/**
 * SorTexx-style light controller on a serial line (fixed 11-byte ASCII frames [SRC 33]). Every command
 * is echoed with a result: `0` done, `C` LED on and waiting for the operator, `D` busy. The operator's
 * press comes later as a second answer `0` for the same address and command, which is the confirm
 * button event (sortexx-ack.ts). The control unit polls its own buttons, so the adapter only listens.
 * An unanswered or busy command is sent again up to `timing.retries` times [§2.6]; commands to other
 * addresses do not wait for it. Lights wanted while the line was down are sent again when it is back.
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
import { encodeSortexx, type SortexxFrame } from "./sortexx.codec.js";
import { type SortexxProfile, sortexxCodec, sortexxCommand } from "./sortexx.profile.js";

interface Outstanding {
  frame: Uint8Array;
  tries: number;
  timer: NodeJS.Timeout;
}

export function createSortexxAdapter(
  ctx: AdapterContext,
  profile: SortexxProfile,
  makeLink: MakeLink,
): DeviceAdapter {
  const { parser, acks } = sortexxCodec(profile);
  const timeoutMs = profile.timing?.responseTimeoutMs ?? FALLBACK_TIMING.responseTimeoutMs;
  const retries = profile.timing?.retries ?? FALLBACK_TIMING.retries;
  const start = profile.ptl.asciiFixed?.start ?? "<";
  const outstanding = new Map<string, Outstanding>();
  const wanted = new Map<string, LightCommand>();

  const link = makeLink({
    onData: (chunk) => {
      ctx.status.seen();
      for (const ev of parser.push(chunk)) {
        if (ev.type === "parse-error") ctx.status.error(`garbage (${ev.bytes.length} bytes)`);
        else answer(ev);
      }
    },
    onOpen: () => {
      ctx.status.connected();
      for (const cmd of wanted.values()) send(cmd).catch(() => {});
    },
    onDown: (reason) => {
      parser.reset();
      for (const o of outstanding.values()) clearTimeout(o.timer);
      outstanding.clear();
      ctx.status.disconnected(reason);
    },
    onRetry: () => ctx.status.reconnecting(),
  });

  function answer(frame: SortexxFrame): void {
    const key = `${frame.address}/${frame.command}`;
    const a = acks.classify(frame);
    if (a.kind === "busy") return; // the timer sends it again
    const o = outstanding.get(key);
    if (o) {
      clearTimeout(o.timer);
      outstanding.delete(key);
    }
    if (a.kind === "confirmed") {
      ctx.emit({
        type: "button",
        deviceId: ctx.deviceId,
        address: frame.address,
        button: "confirm",
        at: ctx.now(),
      });
    } else if (a.kind === "unknown-result") ctx.status.error(`result ${frame.result} from ${frame.address}`);
  }

  function write(key: string, frame: Uint8Array, tries: number): Promise<void> {
    const timer = setTimeout(() => {
      outstanding.delete(key);
      if (tries < retries) write(key, frame, tries + 1).catch(() => {});
      else ctx.status.error(`no answer to ${key}`);
    }, timeoutMs);
    const previous = outstanding.get(key);
    if (previous) clearTimeout(previous.timer);
    outstanding.set(key, { frame, tries, timer });
    return link.write(frame);
  }

  async function send(cmd: LightCommand): Promise<void> {
    const address = readLightAddress(profile.ptl.addressing, cmd.address);
    const [shelf, compartment = 0] = address.numbers;
    const { command, param } = sortexxCommand(profile, cmd);
    const frame = encodeSortexx({ shelf, compartment, command, param, start });
    try {
      await write(`${address.canonical}/${command}`, frame, 0);
    } catch (e) {
      throw new DeviceUnavailableError(ctx.deviceId, errorText(e));
    }
  }

  return {
    start: () => link.start(),
    async stop() {
      for (const o of outstanding.values()) clearTimeout(o.timer);
      outstanding.clear();
      await link.stop();
    },
    async light(cmd) {
      wanted.set(readLightAddress(profile.ptl.addressing, cmd.address).canonical, cmd);
      if (!link.isOpen) throw new DeviceUnavailableError(ctx.deviceId, `${link.path} is not open`);
      await send(cmd);
    },
  };
}
