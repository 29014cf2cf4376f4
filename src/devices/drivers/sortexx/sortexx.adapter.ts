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

/**
 * Commands written and not yet answered, by `address/command`: each is written again when its answer
 * does not come within the timeout, up to `retries` times; a newer command of the same key replaces it.
 */
class Unanswered {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly o: {
      timeoutMs: number;
      retries: number;
      write(frame: Uint8Array): Promise<void>;
      gaveUp(key: string): void;
    },
  ) {}

  send(key: string, frame: Uint8Array, tries = 0): Promise<void> {
    const timer = setTimeout(() => {
      this.timers.delete(key);
      if (tries < this.o.retries) this.send(key, frame, tries + 1).catch(() => {});
      else this.o.gaveUp(key);
    }, this.o.timeoutMs);
    this.answered(key);
    this.timers.set(key, timer);
    return this.o.write(frame);
  }

  answered(key: string): void {
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
  }

  clear(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }
}

export function createSortexxAdapter(
  ctx: AdapterContext,
  profile: SortexxProfile,
  makeLink: MakeLink,
): DeviceAdapter {
  const { parser, acks } = sortexxCodec(profile);
  const start = profile.ptl.asciiFixed?.start ?? "<";
  const wanted = new Map<string, LightCommand>();
  const unanswered = new Unanswered({
    timeoutMs: profile.timing?.responseTimeoutMs ?? FALLBACK_TIMING.responseTimeoutMs,
    retries: profile.timing?.retries ?? FALLBACK_TIMING.retries,
    write: (frame) => link.write(frame),
    gaveUp: (key) => ctx.status.error(`no answer to ${key}`),
  });

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
      unanswered.clear();
      ctx.status.disconnected(reason);
    },
    onRetry: () => ctx.status.reconnecting(),
  });

  function answer(frame: SortexxFrame): void {
    const a = acks.classify(frame);
    if (a.kind === "busy") return; // the timer sends it again
    unanswered.answered(`${frame.address}/${frame.command}`);
    const { address } = frame;
    if (a.kind === "confirmed")
      ctx.emit({ type: "button", deviceId: ctx.deviceId, address, button: "confirm", at: ctx.now() });
    else if (a.kind === "unknown-result") ctx.status.error(`result ${frame.result} from ${address}`);
  }

  async function send(cmd: LightCommand): Promise<void> {
    const address = readLightAddress(profile.ptl.addressing, cmd.address);
    const [shelf, compartment = 0] = address.numbers;
    const { command, param } = sortexxCommand(profile, cmd);
    const frame = encodeSortexx({ shelf, compartment, command, param, start });
    try {
      await unanswered.send(`${address.canonical}/${command}`, frame);
    } catch (e) {
      throw new DeviceUnavailableError(ctx.deviceId, errorText(e));
    }
  }

  return {
    start: () => link.start(),
    async stop() {
      unanswered.clear();
      await link.stop();
    },
    async light(cmd) {
      wanted.set(readLightAddress(profile.ptl.addressing, cmd.address).canonical, cmd);
      if (!link.isOpen) throw new DeviceUnavailableError(ctx.deviceId, `${link.path} is not open`);
      await send(cmd);
    },
  };
}
