import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeFileDurably } from "../../../durable-file.js";

/** What a label is sent as: the agent's own label (PDF or ZPL) or a carrier's label as it was served. */
export type LabelFormat = "pdf" | "zpl" | "png";

export interface LabelDocument {
  format: LabelFormat;
  bytes: Uint8Array;
}

/** One print job: its name (shown by the printer's queue) and the bin it is for. */
export interface PrintJob {
  name: string;
  /** The station bin the label is for: a printer may keep one bin's jobs apart from another's. */
  binId?: string | undefined;
}

/**
 * A label printer: `print` resolves once the printer reports the job done, or rejects with why.
 * `accepts`: the formats it takes as they are; the agent renders its own label in the first of them.
 */
export interface LabelPrinter {
  accepts: readonly LabelFormat[];
  print(doc: LabelDocument, job: PrintJob): Promise<void>;
  /** A printer with a connection of its own (zebra-printer.ts) starts and stops with station printing. */
  start?(): void;
  stop?(): Promise<void>;
  /** What the printer says of itself, for /readyz and the operator screen; absent: it says nothing. */
  state?(): PrinterState;
  /** Called whenever `state()` changes. */
  onStateChange?(listener: () => void): void;
}

/** What stops a printer, as the operator screen names it (docs/station.md#shipping-labels-pickpack). */
export type PrinterCause = "paused" | "paper_out" | "head_open" | "ribbon_out" | "no_answer" | "fault";

/** A printer's own state (docs/station.md#shipping-labels-pickpack): ok, or what stops it, in words. */
export interface PrinterState {
  ok: boolean;
  /** e.g. "the printer is out of paper"; null when ok. */
  problem: string | null;
  /** The problem as a key the screen has words for in every language; null when ok. */
  cause: PrinterCause | null;
  /** Where it is, e.g. `zebra-3.local:9100`. */
  printer: string;
}

/**
 * Writes each label as a PDF file (the simulated printer of the embedded defaults, and a spool folder
 * another program may watch). Done = the file is on disk under its final name.
 */
export function filePrinter(dir: string): LabelPrinter {
  return {
    accepts: ["pdf", "zpl", "png"],
    async print(doc, job) {
      mkdirSync(dir, { recursive: true });
      const safe = job.name.replace(/[^A-Za-z0-9._-]/g, "_");
      writeFileDurably(join(dir, `${safe}.${doc.format}`), doc.bytes, 0o640);
    },
  };
}

// CUPS: cups-printer.ts (lp, lpstat, cancel) around the decisions of cups-verdict.ts.
