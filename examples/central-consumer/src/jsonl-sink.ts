/**
 * The example's sink: one JSON line per notification, appended to a file (or written to stdout), with
 * the station, its seq, when it was delivered and the envelope exactly as published. The write is
 * synchronous (to a file with writeSync; to stdout through process.stdout, which Node writes
 * synchronously to files and pipes on Linux, where a raw writeSync on a non-blocking pipe fails with
 * EAGAIN), so the position is stored only after the lines were handed to the operating system.
 */
import { closeSync, openSync, writeSync } from "node:fs";
import type { Delivery, Sink } from "./consumer.js";

export interface FileSink {
  sink: Sink;
  close(): void;
}

/** `{"station":"dc1/7","seq":41,"deliveredAt":"…","notification":<the envelope>}` per line. */
export function line(d: Delivery, deliveredAt: string): string {
  return `{"station":${JSON.stringify(d.station)},"seq":${d.seq},"deliveredAt":"${deliveredAt}","notification":${d.payload}}\n`;
}

export function jsonlSink(file: string | null): FileSink {
  const lines = (batch: Delivery[]) => {
    const at = new Date().toISOString();
    return batch.map((d) => line(d, at)).join("");
  };
  if (file === null) return { sink: (batch) => void process.stdout.write(lines(batch)), close() {} };
  const fd = openSync(file, "a");
  return {
    sink: (batch) => void writeSync(fd, lines(batch)),
    close: () => closeSync(fd),
  };
}
