/**
 * One serial port (USB-serial, USB-CDC or RS-485 adapter) kept open: opened by its path (prefer
 * /dev/serial/by-id/..., ttyUSB numbers change on replug [SRC 68]), reopened with backoff after a close
 * or a failed open. serialport reports an unplug as `close` with `disconnected: true` [SRC 69]; any
 * other close that we did not ask for is treated the same way. The port is behind a small factory seam
 * so tests can use @serialport/binding-mock.
 */

import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import type { Logger } from "pino";
import type { ByteLink, LinkEvents } from "./byte-link.js";
import { linkReconnector, type Reconnector } from "./reconnect.js";

export interface SerialSettings {
  path: string;
  baudRate: number;
  dataBits: 7 | 8;
  parity: "none" | "even" | "odd";
  stopBits: 1 | 2;
}

/** The part of serialport's stream the link uses. */
export interface SerialPortLike {
  readonly isOpen: boolean;
  open(cb: (err: Error | null) => void): void;
  write(data: Buffer, cb: (err: Error | null | undefined) => void): boolean;
  close(cb: (err: Error | null) => void): void;
  on(event: string, fn: (...args: never[]) => void): unknown;
  removeAllListeners(): unknown;
}

export type SerialPortFactory = (settings: SerialSettings) => SerialPortLike;

/** The real port. `lock: true` (the default) refuses a port another process holds [SRC 71]. */
export const nodeSerialPort: SerialPortFactory = (s) => {
  // Loaded on first use: a station without serial devices does not pay for the native binding.
  const { SerialPort } = createRequire(import.meta.url)("serialport") as typeof import("serialport");
  return new SerialPort({ ...s, autoOpen: false });
};

/** How often an open port's path is looked for (docs/hardware.md#reconnecting-and-device-health). */
export const PATH_CHECK_MS = 1000;

export interface SerialLinkOptions extends LinkEvents {
  settings: SerialSettings;
  /** The port's maker; none: the real serialport, whose path is also watched (a mock's is not a file). */
  factory?: SerialPortFactory | undefined;
  backoffMs: readonly number[];
  log: Logger;
}

export class SerialLink implements ByteLink {
  private port: SerialPortLike | undefined;
  private readonly reconnect: Reconnector;
  private pathWatch: NodeJS.Timeout | undefined;

  constructor(private readonly opts: SerialLinkOptions) {
    this.reconnect = linkReconnector(opts, () => this.open());
  }

  get path(): string {
    return this.opts.settings.path;
  }

  get isOpen(): boolean {
    return this.port?.isOpen === true;
  }

  start(): void {
    this.reconnect.start();
  }

  async stop(): Promise<void> {
    this.reconnect.stop();
    clearInterval(this.pathWatch);
    const port = this.port;
    this.port = undefined;
    if (!port) return;
    await new Promise<void>((done) => {
      if (!port.isOpen) return done();
      port.close(() => done());
    });
    port.removeAllListeners();
    port.on("error", () => {}); // a late error from a closed port must not become an uncaught one
  }

  /** Resolves once serialport took the bytes; rejects when the port is not open. */
  write(bytes: Uint8Array): Promise<void> {
    const port = this.port;
    if (!port?.isOpen) return Promise.reject(new Error(`${this.path} is not open`));
    return new Promise((resolve, reject) => {
      port.write(Buffer.from(bytes), (err) => (err ? reject(err) : resolve()));
    });
  }

  private open(): Promise<void> {
    const port = (this.opts.factory ?? nodeSerialPort)(this.opts.settings);
    port.on("data", (chunk: Buffer) => {
      if (this.port === port) this.opts.onData(new Uint8Array(chunk));
    });
    // Without an 'error' listener a failed write would crash the process.
    port.on("error", (err: Error) => this.opts.log.debug({ err, path: this.path }, "serial port error"));
    port.on("close", (err?: Error & { disconnected?: boolean }) =>
      this.lose(port, err?.disconnected ? "disconnected" : `closed${err ? `: ${err.message}` : ""}`),
    );
    return new Promise((resolve, reject) => {
      port.open((err) => {
        if (err) {
          port.removeAllListeners();
          port.on("error", () => {});
          return reject(err);
        }
        if (!this.reconnect.running) {
          port.close(() => {});
          return reject(new Error("stopped"));
        }
        this.port = port;
        this.opts.onOpen();
        if (!this.opts.factory) this.watchPath(port);
        resolve();
      });
    });
  }

  /** The port is gone (unplugged, or closed by no one here): reported down once, then reopened with backoff. */
  private lose(port: SerialPortLike, why: string): void {
    if (this.port !== port) return; // closed by stop() or replaced
    this.port = undefined;
    clearInterval(this.pathWatch);
    port.removeAllListeners();
    port.on("error", () => {});
    if (port.isOpen) port.close(() => {});
    this.opts.onDown(why);
    this.reconnect.lost();
  }

  /**
   * An unplugged adapter's path goes with it (udev removes its /dev/serial/by-id link, a pseudo-terminal's
   * link goes with its pair), while a read on the stale descriptor may report nothing at all: an open
   * port whose path is gone is given up as disconnected.
   */
  private watchPath(port: SerialPortLike): void {
    clearInterval(this.pathWatch);
    this.pathWatch = setInterval(() => {
      if (this.port === port && !existsSync(this.path)) this.lose(port, "disconnected (its path is gone)");
    }, PATH_CHECK_MS);
    this.pathWatch.unref();
  }
}
