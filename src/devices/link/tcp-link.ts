/**
 * One TCP connection to a controller (the Atop AT500 speaks CCB over TCP [SRC 30]), reconnected with
 * backoff after a close, an error or a connect that does not finish. Nagle is off: a light command is a
 * few bytes that must leave now, not be batched. Same shape as SerialLink so adapters take either.
 */
import { createConnection, type Socket } from "node:net";
import type { Logger } from "pino";
import type { ByteLink, LinkEvents } from "./byte-link.js";
import { linkReconnector, type Reconnector } from "./reconnect.js";

export interface TcpLinkOptions extends LinkEvents {
  host: string;
  port: number;
  backoffMs: readonly number[];
  /** A connect that takes longer is abandoned and retried (a powered-off controller never answers SYN). */
  connectTimeoutMs?: number;
  log: Logger;
}

export class TcpLink implements ByteLink {
  private socket: Socket | undefined;
  private readonly reconnect: Reconnector;

  constructor(private readonly opts: TcpLinkOptions) {
    this.reconnect = linkReconnector(opts, () => this.open());
  }

  get path(): string {
    return `tcp://${this.opts.host}:${this.opts.port}`;
  }

  get isOpen(): boolean {
    return this.socket !== undefined && !this.socket.destroyed && this.socket.readyState === "open";
  }

  start(): void {
    this.reconnect.start();
  }

  async stop(): Promise<void> {
    this.reconnect.stop();
    const s = this.socket;
    this.socket = undefined;
    if (!s || s.destroyed) return;
    await new Promise<void>((done) => {
      s.once("close", () => done());
      s.destroy();
    });
  }

  write(bytes: Uint8Array): Promise<void> {
    const s = this.socket;
    if (!s || !this.isOpen) return Promise.reject(new Error(`${this.path} is not connected`));
    return new Promise((resolve, reject) => {
      s.write(bytes, (err) => (err ? reject(err) : resolve()));
    });
  }

  private open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const s = createConnection({ host: this.opts.host, port: this.opts.port });
      s.setNoDelay(true);
      s.setTimeout(this.opts.connectTimeoutMs ?? 5000, () => s.destroy(new Error("connect timed out")));
      let up = false;
      let failure: Error | undefined;
      s.on("error", (err) => {
        failure = err;
        this.opts.log.debug({ err, link: this.path }, "tcp error");
      });
      s.on("data", (chunk: Buffer) => {
        if (this.socket === s) this.opts.onData(new Uint8Array(chunk));
      });
      s.once("connect", () => {
        up = true;
        s.setTimeout(0);
        s.setKeepAlive(true, 10_000);
        if (!this.reconnect.running) {
          s.destroy();
          return reject(new Error("stopped"));
        }
        this.socket = s;
        this.opts.onOpen();
        resolve();
      });
      s.once("close", (hadError) => {
        if (!up) return reject(failure ?? new Error(hadError ? "connection failed" : "closed"));
        if (this.socket !== s) return; // stopped
        this.socket = undefined;
        this.opts.onDown(hadError ? "connection lost" : "closed by the controller");
        this.reconnect.lost();
      });
    });
  }
}
