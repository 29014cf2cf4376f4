/**
 * The example's sink: one JSON line per notification, appended to a file (or written to stdout), with
 * the station, its seq, when it was delivered and the envelope exactly as published. The write is
 * synchronous, so the position is stored only after the lines were handed to the operating system.
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
  const fd = file === null ? 1 : openSync(file, "a");
  return {
    sink(batch) {
      const at = new Date().toISOString();
      writeSync(fd, batch.map((d) => line(d, at)).join(""));
    },
    close() {
      if (fd !== 1) closeSync(fd);
    },
  };
}
