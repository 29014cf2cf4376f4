/**
 * A label printer behind CUPS (docs/hardware.md#cups-verdicts): `lp` sends the label, `lpstat` is read
 * every `pollMs` until cups-verdict.ts says printed or failed, `cancel` withdraws a job given up on, so a
 * box never gets two labels (docs/decisions.md#cups-cancel-on-give-up).
 */
import { existsSync } from "node:fs";
import type { Logger } from "pino";
import { cupsCommands } from "./cups-commands.js";
import {
  CUPS_LIMITS,
  CUPSD_DOWN,
  type CupsLimits,
  cancelOutcome,
  decideCupsJob,
  submitFailure,
} from "./cups-verdict.js";
import type { LabelFormat, LabelPrinter, PrintJob } from "./label-printer.js";

export interface CupsPrinterOptions {
  queue: string;
  /** PWG media name (`na_index-4x6_4x6in`, `iso_a6_105x148mm`). */
  media: string;
  /** `host:port` or a socket path (`CUPS_SERVER`); none: the system's default server. */
  server?: string | undefined;
  log?: Logger | undefined;
  pollMs?: number;
  /** How often a job still waiting is logged. */
  logEveryMs?: number;
  limits?: CupsLimits;
  now?: () => number;
}

/** A job the agent sent and has not seen end: its bin and name, kept until it printed or is cancelled. */
interface SentJob {
  id: string;
  binId: string | undefined;
  name: string;
}

/** CUPS turns PNG into pages with cups-filters' imagetopdf (Debian's `cups` depends on cups-filters). */
const IMAGE_FILTER = "/usr/lib/cups/filter/imagetopdf";

export type CupsPrinter = LabelPrinter & {
  /** The jobs given up on whose cancel has not succeeded yet (cupsd was down). */
  uncancelled(): readonly { id: string; binId: string | undefined }[];
};

export function cupsPrinter(opts: CupsPrinterOptions): CupsPrinter {
  const q = opts.queue;
  const now = opts.now ?? Date.now;
  const limits = opts.limits ?? CUPS_LIMITS;
  const { run, serverRunning, look: lookAt } = cupsCommands(opts.server);
  const look = (id: string) => lookAt(q, id);
  /** Jobs given up on that could not be cancelled yet, by job id. */
  const toCancel = new Map<string, SentJob>();

  /**
   * Cancels a job: `gone` (cancelled, or it ended without printing), `printed` (it ended printed before
   * the cancel came), `kept` (cupsd did not cancel it: remembered, tried again before the bin's next label).
   */
  async function cancel(job: SentJob): Promise<"gone" | "printed" | "kept"> {
    const error = await run("cancel", [job.id]).then(
      () => undefined,
      (e: Error) => e.message,
    );
    const outcome = cancelOutcome(error);
    if (outcome === "cancelled") {
      toCancel.delete(job.id);
      opts.log?.warn({ jobId: job.id, queue: q, binId: job.binId }, "print job given up on and cancelled");
      return "gone";
    }
    if (outcome === "already-ended") {
      toCancel.delete(job.id);
      const seen = await look(job.id).catch(() => undefined);
      const printed =
        seen && decideCupsJob(seen, { queue: q, jobId: job.id, elapsedMs: 0 }).kind === "printed";
      return printed ? "printed" : "gone";
    }
    toCancel.set(job.id, job);
    opts.log?.error(
      { jobId: job.id, queue: q, binId: job.binId, error },
      "print job given up on could not be cancelled; it is cancelled before the bin's next label",
    );
    return "kept";
  }

  /**
   * The jobs given up on earlier are cancelled before anything else of their bin prints; true when one of
   * this bin with this name printed meanwhile (cupsd restarted it), so it is not sent again.
   */
  async function settleEarlier(job: PrintJob): Promise<boolean> {
    let printed = false;
    for (const earlier of [...toCancel.values()]) {
      const end = await cancel(earlier);
      if (end === "printed" && earlier.binId === job.binId && earlier.name === job.name) printed = true;
      if (end === "printed")
        opts.log?.warn(
          { jobId: earlier.id, queue: q, binId: earlier.binId },
          "a print job given up on printed",
        );
    }
    const blocking = [...toCancel.values()].filter((e) => e.binId === job.binId);
    if (blocking.length)
      throw new Error(
        `${(await serverRunning()) ? "the print server did not cancel" : `${CUPSD_DOWN}; it could not cancel`} the earlier print job ${blocking.map((b) => b.id).join(", ")} of this bin`,
      );
    return printed;
  }

  async function submit(bytes: Uint8Array, job: PrintJob): Promise<string> {
    const args = ["-d", q, "-t", job.name, "-o", `media=${opts.media}`, "-o", "fit-to-page=false", "-"];
    const out = await run("lp", args, bytes).catch(async (err: Error) => {
      const serverUp = await serverRunning();
      const a = serverUp ? await run("lpstat", ["-a", q]).catch(() => "") : "";
      const rejectReason = / not accepting /.test(a) ? (a.split("\n")[1]?.trim() ?? "") : "";
      throw new Error(submitFailure(err.message, { queue: q, serverRunning: serverUp, rejectReason }));
    });
    const id = /request id is (\S+)/.exec(out)?.[1];
    if (!id) throw new Error(`the print server gave no job id: ${out.trim()}`);
    return id;
  }

  const accepts: LabelFormat[] = existsSync(IMAGE_FILTER) ? ["pdf", "png"] : ["pdf"];
  return {
    accepts,
    uncancelled: () => [...toCancel.values()].map(({ id, binId }) => ({ id, binId })),
    async print(doc, job) {
      if (!accepts.includes(doc.format))
        throw new Error(`the CUPS queue ${q} takes ${accepts.join(" or ").toUpperCase()}, not ${doc.format}`);
      if (await settleEarlier(job)) return;
      const id = await submit(doc.bytes, job);
      const sent: SentJob = { id, binId: job.binId, name: job.name };
      const start = now();
      let logged = start;
      opts.log?.info({ jobId: id, queue: q, binId: job.binId }, "label sent to CUPS");
      for (;;) {
        const verdict = decideCupsJob(
          await look(id),
          { queue: q, jobId: id, elapsedMs: now() - start },
          limits,
        );
        if (verdict.kind === "printed") return;
        if (verdict.kind === "failed") {
          opts.log?.error(
            { jobId: id, queue: q, binId: job.binId, cause: verdict.cause },
            "label not printed",
          );
          // given up on: withdrawn, so it cannot print later beside the operator's reprint
          if ((await cancel(sent)) === "printed") return;
          throw new Error(verdict.cause);
        }
        if (now() - logged >= (opts.logEveryMs ?? 3000)) {
          logged = now();
          opts.log?.info(
            { jobId: id, queue: q, binId: job.binId, state: verdict.state, reason: verdict.reason },
            "label print job waiting",
          );
        }
        await new Promise((r) => setTimeout(r, opts.pollMs ?? 1000));
      }
    },
  };
}
