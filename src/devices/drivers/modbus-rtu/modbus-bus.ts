/**
 * Modbus RTU master over one serial line: strictly one transaction at a time ("slaves never transmit
 * without a request", concurrent requests get lost [SRC 39, 67]), a response timeout and a number of
 * retries from the profile, exceptions (fc | 0x80) reported as errors, never retried [SRC 41]. Frames
 * are cut by length, not by silence (modbus-rtu.parser.ts). With a 2-wire RS-485 adapter that echoes,
 * the request's own bytes are skipped before parsing [SRC 66].
 */
import type { ModbusResponse } from "./modbus-rtu.codec.js";
import { ModbusRtuParser } from "./modbus-rtu.parser.js";

export interface ModbusBusOptions {
  write(bytes: Uint8Array): Promise<void>;
  twoWireEcho: boolean;
  interFrameGapMs: number | null;
  now(): number;
  /** A frame nobody waited for, a bad CRC, garbage: counted by the caller. */
  onNoise?(reason: string): void;
}

export interface TransactionOptions {
  timeoutMs: number;
  retries: number;
}

export class ModbusTimeoutError extends Error {
  readonly code = "modbus_timeout";
  constructor(readonly unit: number) {
    super(`no answer from unit ${unit}`);
    this.name = "ModbusTimeoutError";
  }
}

export class ModbusExceptionError extends Error {
  readonly code = "modbus_exception";
  constructor(
    readonly unit: number,
    readonly exception: number,
    readonly exceptionName: string,
  ) {
    super(`unit ${unit} answered exception ${exception} (${exceptionName})`);
    this.name = "ModbusExceptionError";
  }
}

type Answer = Extract<ModbusResponse, { kind: "read" | "write" }>;

interface Waiting {
  unit: number;
  fc: number;
  settle(result: ModbusResponse | Error): void;
}

export class ModbusBus {
  private readonly parser: ModbusRtuParser<"response">;
  private tail: Promise<unknown> = Promise.resolve();
  private waiting: Waiting | null = null;
  private echo: Uint8Array | null = null;
  private echoAt = 0;

  constructor(private readonly opts: ModbusBusOptions) {
    this.parser = new ModbusRtuParser({ direction: "response", interFrameGapMs: opts.interFrameGapMs });
  }

  /** Queues one request frame (CRC included); resolves with its answer. */
  request(frame: Uint8Array, t: TransactionOptions): Promise<Answer> {
    const run = this.tail.then(() => this.transact(frame, t));
    this.tail = run.catch(() => undefined);
    return run;
  }

  /** Bytes from the line. */
  onData(chunk: Uint8Array): void {
    let data = chunk;
    if (this.echo) {
      let i = 0;
      while (i < data.length && this.echoAt < this.echo.length && data[i] === this.echo[this.echoAt]) {
        i++;
        this.echoAt++;
      }
      if (this.echoAt >= this.echo.length || i < data.length) this.echo = null;
      data = data.subarray(i);
      if (data.length === 0) return;
    }
    for (const ev of this.parser.push(data, this.opts.now())) {
      if (ev.type === "parse-error") {
        this.opts.onNoise?.(ev.reason);
        continue;
      }
      const w = this.waiting;
      if (w && ev.message.unit === w.unit && ev.message.fc === w.fc) w.settle(ev.message);
      else this.opts.onNoise?.("unexpected-frame");
    }
  }

  /** The line went down: the transaction in flight fails now instead of timing out. */
  reset(reason: string): void {
    this.parser.reset();
    this.echo = null;
    this.waiting?.settle(new Error(reason));
  }

  private async transact(frame: Uint8Array, t: TransactionOptions): Promise<Answer> {
    const unit = frame[0] ?? 0;
    const fc = frame[1] ?? 0;
    for (let attempt = 0; ; attempt++) {
      const answer = await this.once(frame, unit, fc, t.timeoutMs);
      if (answer === "timeout") {
        for (const ev of this.parser.flush()) if (ev.type === "parse-error") this.opts.onNoise?.(ev.reason);
        if (attempt < t.retries) continue;
        throw new ModbusTimeoutError(unit);
      }
      if (answer.kind === "exception") throw new ModbusExceptionError(unit, answer.code, answer.name);
      return answer;
    }
  }

  private once(frame: Uint8Array, unit: number, fc: number, timeoutMs: number) {
    return new Promise<ModbusResponse | "timeout">((resolve, reject) => {
      const timer = setTimeout(() => done("timeout"), timeoutMs);
      const done = (result: ModbusResponse | Error | "timeout") => {
        clearTimeout(timer);
        this.waiting = null;
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      this.waiting = { unit, fc, settle: done };
      if (this.opts.twoWireEcho) {
        this.echo = frame;
        this.echoAt = 0;
      }
      this.opts.write(frame).catch((e: unknown) => done(e instanceof Error ? e : new Error(String(e))));
    });
  }
}
