/**
 * A SorTexx-style control unit played on the device end of a pseudo-terminal (hardware.md §2.3 [SRC 33]):
 * every 11-byte command is answered with its echo and a result, `C` for an LED switched on (it now
 * waits for the operator), `0` for anything else. `press(address)` is the operator's acknowledgement:
 * the lit frame again with result `0`. Every command read is kept, in order, as its 11 ASCII bytes.
 */
import type { SerialPort } from "serialport";
import { deadline } from "../../../support/deadline.js";
import { writeTo } from "../../../support/devices/pty.js";

export class SortexxUnit {
  readonly frames: string[] = [];
  private readonly lit = new Map<string, string>();
  private buffer = "";
  private readonly waiters = new Set<() => void>();

  constructor(private readonly port: SerialPort) {
    port.on("data", (chunk: Buffer) => this.onData(chunk));
  }

  private onData(chunk: Buffer): void {
    this.buffer += chunk.toString("latin1");
    for (const m of this.buffer.matchAll(/<(\d{6})(.)(.)(.)>/g)) {
      const [frame, address = "", command, param] = m;
      this.frames.push(frame);
      const on = (command === "1" || command === "2") && param !== "0";
      if (on) this.lit.set(address, frame);
      else this.lit.delete(address);
      void writeTo(this.port, `${frame.slice(0, 9)}${on ? "C" : "0"}>`);
    }
    this.buffer = this.buffer.slice(this.buffer.lastIndexOf(">") + 1);
    for (const w of [...this.waiters]) w();
  }

  /** What the module at `address` shows: `off`, or the command's parameter (`1` green, `5` green fast…). */
  showing(address: string): string {
    const f = this.lit.get(address);
    return f ? (f[8] as string) : "off";
  }

  /** Waits until a frame after index `from` satisfies `match`; returns it. */
  next(from: number, match: (frame: string) => boolean, what: string, timeoutMs = 5000): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const f = this.frames.slice(from).find(match);
        if (f === undefined) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(f);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out waiting for ${what}; frames: ${this.frames.slice(from).join(" ")}`));
      }, deadline(timeoutMs));
      this.waiters.add(check);
      check();
    });
  }

  /** The operator acknowledges the lit module: the second answer `0` to its frame. */
  async press(address: string): Promise<void> {
    const f = this.lit.get(address);
    if (!f) throw new Error(`module ${address} is not lit; nothing to acknowledge`);
    this.lit.delete(address);
    await writeTo(this.port, f);
  }
}
