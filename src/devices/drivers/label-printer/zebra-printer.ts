/**
 * A Zebra on its raw TCP port (9100), no CUPS between (docs/hardware.md#zpl-labels): one connection,
 * reconnected with backoff; `~HS` every `statusIntervalMs` keeps the printer's latest state; a label is
 * printed only once the printer took the bytes and a later `~HS` shows it done with no fault. A label
 * given up on is cancelled with `~JA`, so it cannot print by itself later (docs/decisions.md#zpl-labels).
 */
import type { Logger } from "pino";
import { TcpLink } from "../../link/tcp-link.js";
import type { LabelDocument, LabelPrinter, PrinterState, PrintJob } from "./label-printer.js";
import {
  CANCEL_ALL,
  createHostStatusDecoder,
  jobVerdict,
  STATUS_REQUEST,
  type ZebraStatus,
  zebraFault,
  zebraFaultCause,
} from "./zebra-status.js";

export interface ZebraPrinterOptions {
  host: string;
  port: number;
  statusIntervalMs: number;
  statusTimeoutMs: number;
  jobTimeoutMs: number;
  log: Logger;
  /** Reconnect delays; the last repeats. */
  backoffMs?: readonly number[];
}

/** While a label is out, the printer is asked this often whether it is done. */
const JOB_POLL_MS = 250;
const BACKOFF_MS = [250, 500, 1000, 2000, 5000];

type PrinterEvent = { kind: "status"; status: ZebraStatus } | { kind: "silent" } | { kind: "down" };
type Waiter = (e: PrinterEvent) => void;

export function zebraPrinter(opts: ZebraPrinterOptions): ZebraPrinter {
  return new ZebraPrinter(opts);
}

export class ZebraPrinter implements LabelPrinter {
  readonly accepts = ["zpl"] as const;
  private readonly where: string;
  private readonly silentWords: string;
  private readonly decoder = createHostStatusDecoder();
  private readonly listeners: Array<() => void> = [];
  /** Queries sent and not answered yet, oldest first, each with its timeout. */
  private readonly queries: NodeJS.Timeout[] = [];
  private readonly waiters = new Set<Waiter>();
  private readonly link: TcpLink;
  private connected = false;
  private downReason: string | null = null;
  private answering = true;
  private last: ZebraStatus | null = null;
  /** A label was given up while the link was down: cancel everything once it is back. */
  private cancelOnConnect = false;
  private poll: NodeJS.Timeout | undefined;
  private jobs: Promise<unknown> = Promise.resolve();
  private shown = "";

  constructor(private readonly opts: ZebraPrinterOptions) {
    this.where = `${opts.host}:${opts.port}`;
    this.silentWords = `the printer does not answer at ${this.where}`;
    this.link = new TcpLink({
      host: opts.host,
      port: opts.port,
      backoffMs: opts.backoffMs ?? BACKOFF_MS,
      connectTimeoutMs: Math.max(1000, opts.statusTimeoutMs),
      log: opts.log,
      onData: (chunk) => this.received(chunk),
      onOpen: () => this.opened(),
      onDown: (reason) => this.down(reason),
    });
  }

  start(): void {
    this.link.start();
    this.poll = setInterval(() => {
      if (this.queries.length === 0) this.query();
    }, this.opts.statusIntervalMs);
    this.poll.unref();
  }

  async stop(): Promise<void> {
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
    for (const q of this.queries.splice(0)) clearTimeout(q);
    await this.link.stop();
    this.connected = false;
  }

  state(): PrinterState {
    const printer = this.where;
    const silent = { ok: false, problem: this.silentWords, cause: "no_answer" as const, printer };
    if (!this.connected && this.downReason !== null) return silent;
    // started, not connected yet: not known to print
    if (!this.connected)
      return {
        ok: false,
        problem: `the printer at ${printer} is not connected yet`,
        cause: "no_answer",
        printer,
      };
    if (!this.answering) return silent;
    const fault = this.last ? zebraFault(this.last) : null;
    return {
      ok: fault === null,
      problem: fault,
      cause: this.last ? zebraFaultCause(this.last) : null,
      printer,
    };
  }

  /** The printer's last `~HS` answer, or null. */
  status(): ZebraStatus | null {
    return this.last;
  }

  onStateChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  print(doc: LabelDocument, job: PrintJob): Promise<void> {
    if (doc.format !== "zpl")
      return Promise.reject(new Error(`the Zebra at ${this.where} takes ZPL, not ${doc.format}`));
    // one label at a time on the one connection: a verdict is about one label
    const run = this.jobs.then(() => this.printNow(doc, job));
    this.jobs = run.catch(() => {});
    return run;
  }

  private received(chunk: Uint8Array): void {
    for (const status of this.decoder.push(chunk)) {
      const q = this.queries.shift();
      if (q) clearTimeout(q);
      this.last = status;
      this.answering = true;
      this.tell({ kind: "status", status });
    }
  }

  private opened(): void {
    this.connected = true;
    this.downReason = null;
    if (this.cancelOnConnect) {
      this.cancelOnConnect = false;
      void this.send(CANCEL_ALL).then(() =>
        this.opts.log.warn({ printer: this.where }, "labels given up on cancelled (~JA)"),
      );
    }
    this.query();
    this.changed();
  }

  private down(reason: string): void {
    if (this.downReason === null)
      this.opts.log.warn({ printer: this.where, reason }, "label printer not connected");
    this.connected = false;
    this.downReason = reason;
    for (const q of this.queries.splice(0)) clearTimeout(q);
    this.tell({ kind: "down" });
  }

  private tell(e: PrinterEvent): void {
    for (const w of [...this.waiters]) w(e);
    this.changed();
  }

  private changed(): void {
    const state = this.state();
    const now = JSON.stringify(state);
    if (now === this.shown) return;
    this.shown = now;
    this.opts.log[state.ok ? "info" : "warn"]({ ...state }, "label printer state");
    for (const l of this.listeners) l();
  }

  private async send(text: string): Promise<boolean> {
    try {
      await this.link.write(Buffer.from(text, "latin1"));
      return true;
    } catch {
      return false;
    }
  }

  /** Asks `~HS`; an answer that does not come within statusTimeoutMs makes the printer "not answering". */
  private query(): void {
    if (!this.connected) return;
    const timer = setTimeout(() => {
      const i = this.queries.indexOf(timer);
      if (i >= 0) this.queries.splice(i, 1);
      this.answering = false;
      this.tell({ kind: "silent" });
    }, this.opts.statusTimeoutMs);
    this.queries.push(timer);
    void this.send(STATUS_REQUEST);
  }

  /** Until the first answer after start (at most an interval and a status timeout): what is known then. */
  private async settled(): Promise<void> {
    if (this.last !== null || !this.answering || (!this.connected && this.downReason !== null)) return;
    await new Promise<void>((done) => {
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(finish);
        done();
      };
      const timer = setTimeout(finish, this.opts.statusTimeoutMs + this.opts.statusIntervalMs);
      this.waiters.add(finish);
    });
  }

  /** Asks `~HS` now and waits for its answer, or its timeout, or the connection's end. */
  private fresh(): Promise<void> {
    return new Promise<void>((done) => {
      const finish = () => {
        this.waiters.delete(finish);
        done();
      };
      this.waiters.add(finish);
      this.query();
    });
  }

  /** Cancels every label in the printer's buffer: a label given up on must not print later by itself. */
  private async giveUp(job: PrintJob, why: string): Promise<never> {
    const cancelled = this.connected && (await this.send(CANCEL_ALL));
    if (!cancelled) this.cancelOnConnect = true;
    this.opts.log.warn(
      { printer: this.where, job: job.name, why, cancelled },
      "label given up; the printer's buffer is cancelled",
    );
    throw new Error(why);
  }

  private async printNow(doc: LabelDocument, job: PrintJob): Promise<void> {
    await this.settled();
    // a fault last seen may be cleared by now (the operator's Reprint comes right after): ask once more
    if (!this.state().ok && this.connected) await this.fresh();
    const before = this.state();
    if (!before.ok) throw new Error(before.problem ?? this.silentWords);
    // answers to queries sent before the label say nothing about it: they are skipped
    const skip = this.queries.length;
    try {
      await this.link.write(doc.bytes);
    } catch (e) {
      return this.giveUp(
        job,
        `the label could not be sent to the printer at ${this.where}: ${(e as Error).message}`,
      );
    }
    const why = await this.verdict(skip);
    if (why !== null) return this.giveUp(job, why);
  }

  /** Asks the printer until an answer after the label says it is done (null) or why it is not. */
  private verdict(skipAnswers: number): Promise<string | null> {
    let skip = skipAnswers;
    return new Promise<string | null>((resolve) => {
      const ask = setInterval(() => this.query(), JOB_POLL_MS);
      const timeout = setTimeout(
        () =>
          finish(
            `the printer at ${this.where} did not finish the label within ${this.opts.jobTimeoutMs / 1000} s`,
          ),
        this.opts.jobTimeoutMs,
      );
      const waiter: Waiter = (e) => {
        if (e.kind === "down")
          return finish(`the connection to the printer at ${this.where} was lost during the job`);
        if (e.kind === "silent") return finish(this.silentWords);
        if (skip > 0) {
          skip--;
          return;
        }
        const v = jobVerdict(e.status);
        if (v !== null) finish(v === "done" ? null : v);
      };
      const finish = (why: string | null) => {
        clearInterval(ask);
        clearTimeout(timeout);
        this.waiters.delete(waiter);
        resolve(why);
      };
      this.waiters.add(waiter);
      this.query();
    });
  }
}
