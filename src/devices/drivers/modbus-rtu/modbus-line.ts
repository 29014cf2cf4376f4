/**
 * One RS-485 line shared by every Modbus device the station file puts on the same serial path (a
 * display chain, a DI module, a light curtain): one port, one transaction queue [SRC 39], and the line's
 * state fanned out to each device. The port opens when the first device starts and closes with the last.
 */
import type { Logger } from "pino";
import { SerialLink, type SerialPortFactory, type SerialSettings } from "../../link/serial-link.js";
import { ModbusBus } from "./modbus-bus.js";

export interface LineMember {
  opened(): void;
  down(reason: string): void;
  retrying(): void;
  /** Noise cannot be told apart by unit on a shared line, so every member hears of it. */
  noise(reason: string): void;
}

export interface ModbusLineOptions {
  settings: SerialSettings;
  factory?: SerialPortFactory | undefined;
  backoffMs: readonly number[];
  twoWireEcho: boolean;
  interFrameGapMs: number | null;
  now(): number;
  log: Logger;
}

export class ModbusLine {
  readonly bus: ModbusBus;
  private readonly link: SerialLink;
  private readonly members = new Set<LineMember>();

  constructor(opts: ModbusLineOptions) {
    this.link = new SerialLink({
      settings: opts.settings,
      factory: opts.factory,
      backoffMs: opts.backoffMs,
      log: opts.log,
      onData: (chunk) => this.bus.onData(chunk),
      onOpen: () => {
        for (const m of this.members) m.opened();
      },
      onDown: (reason) => {
        this.bus.reset(reason);
        for (const m of this.members) m.down(reason);
      },
      onRetry: () => {
        for (const m of this.members) m.retrying();
      },
    });
    this.bus = new ModbusBus({
      write: (b) => this.link.write(b),
      twoWireEcho: opts.twoWireEcho,
      interFrameGapMs: opts.interFrameGapMs,
      now: opts.now,
      onNoise: (reason) => {
        for (const m of this.members) m.noise(reason);
      },
    });
  }

  get isOpen(): boolean {
    return this.link.isOpen;
  }

  get path(): string {
    return this.link.path;
  }

  join(member: LineMember): void {
    this.members.add(member);
    if (this.members.size === 1) this.link.start();
    else if (this.link.isOpen) member.opened();
  }

  async leave(member: LineMember): Promise<void> {
    this.members.delete(member);
    if (this.members.size === 0) await this.link.stop();
  }
}
