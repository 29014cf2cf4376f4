import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeFileDurably } from "../../../durable-file.js";

/** A label printer: `print` resolves once the printer reports the job done, or rejects with why. */
export interface LabelPrinter {
  print(pdf: Uint8Array, jobName: string): Promise<void>;
}

/**
 * Writes each label as a PDF file (the simulated printer of the embedded defaults, and a spool folder
 * another program may watch). Done = the file is on disk under its final name.
 */
export function filePrinter(dir: string): LabelPrinter {
  return {
    async print(pdf, jobName) {
      mkdirSync(dir, { recursive: true });
      const safe = jobName.replace(/[^A-Za-z0-9._-]/g, "_");
      writeFileDurably(join(dir, `${safe}.pdf`), pdf, 0o640);
    },
  };
}

function run(cmd: string, args: string[], input?: Uint8Array): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { timeout: 30_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${cmd}: ${stderr || err.message}`.trim())) : resolve(stdout),
    );
    if (input) child.stdin?.end(Buffer.from(input));
  });
}

/**
 * CUPS: `lp -d QUEUE -o media=… -` with the PDF on standard input (hardware.md §0.5: PDF via CUPS where
 * the queue has a driver or IPP Everywhere). Done = the job left the not-completed list (`lpstat`).
 */
export function cupsPrinter(opts: {
  queue: string;
  media: string;
  pollMs?: number;
  timeoutMs?: number;
}): LabelPrinter {
  return {
    async print(pdf, jobName) {
      const out = await run(
        "lp",
        ["-d", opts.queue, "-t", jobName, "-o", `media=${opts.media}`, "-o", "fit-to-page=false", "-"],
        pdf,
      );
      const job = /request id is (\S+)/.exec(out)?.[1];
      if (!job) throw new Error(`lp gave no job id: ${out.trim()}`);
      const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
      for (;;) {
        const pending = await run("lpstat", ["-W", "not-completed", "-o", opts.queue]);
        if (!pending.split("\n").some((l) => l.startsWith(`${job} `))) return;
        if (Date.now() > deadline)
          throw new Error(`print job ${job} not done after ${opts.timeoutMs ?? 120_000} ms`);
        await new Promise((r) => setTimeout(r, opts.pollMs ?? 1000));
      }
    },
  };
}
