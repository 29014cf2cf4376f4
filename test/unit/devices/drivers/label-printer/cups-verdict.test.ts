/**
 * The CUPS verdict: what lpstat printed (texts as CUPS 2.4 prints them with LC_ALL=C) and the time since
 * the job was sent decide printed, failed with its cause, or still waiting (docs/hardware.md#cups-verdicts).
 */
import { describe, expect, it } from "vitest";
import {
  CUPS_LIMITS,
  type CupsJobView,
  type CupsQueueView,
  cancelOutcome,
  decideCupsJob,
  parseJob,
  parseQueue,
  submitFailure,
} from "../../../../../src/devices/drivers/label-printer/cups-verdict.js";

const FIELDS =
  "\tForm mounted:\n\tContent types: any\n\tPrinter types: unknown\n\tDescription: Q\n\tAlerts: none\n";
const IDLE = `printer Q is idle.  enabled since Sat Nov 28 23:39:37 2026\n${FIELDS}`;
const UNREACHABLE_TEXT = "The printer may not exist or is unavailable at this time.";
const PRINTING = `printer Q now printing Q-1.  enabled since Sat Nov 28 23:41:26 2026\n\t${UNREACHABLE_TEXT}\n${FIELDS}`;
const PAUSED = `printer Q disabled since Sat Nov 28 23:40:16 2026 -\n\tPaused\n${FIELDS}`;
const PAUSED_WHY = `printer Q disabled since Sat Nov 28 23:40:16 2026 -\n\tout of labels\n${FIELDS}`;
const ACCEPTING = "Q accepting requests since Sat Nov 28 23:39:52 2026\n";
const REJECTING = "Q not accepting requests since Sat Nov 28 23:40:16 2026 -\n\tmaintenance\n";
const JOBS = [
  "Q-1                     root              1024   Sat Nov 28 23:39:39 2026",
  `\tStatus: ${UNREACHABLE_TEXT}`,
  "\tAlerts: job-printing",
  "\tqueued for Q",
  "Q-12                    root              1024   Sat Nov 28 23:39:40 2026",
  "\tAlerts: none",
  "\tqueued for Q",
  "",
].join("\n");

const queue = (over: Partial<CupsQueueView> = {}): CupsQueueView => ({
  state: "idle",
  message: "",
  reasons: [],
  accepting: true,
  rejectReason: "",
  ...over,
});
const job = (over: Partial<CupsJobView> = {}): CupsJobView => ({
  where: "pending",
  status: "",
  reasons: [],
  ...over,
});
const at = (elapsedMs: number) => ({ queue: "Q", jobId: "Q-1", elapsedMs });

describe("reading lpstat", () => {
  it("reads a queue's state, message, alerts and whether it accepts jobs", () => {
    expect(parseQueue(IDLE, ACCEPTING)).toEqual(queue());
    expect(parseQueue(PRINTING, ACCEPTING)).toEqual(queue({ state: "printing", message: UNREACHABLE_TEXT }));
    expect(parseQueue(PAUSED, ACCEPTING)).toEqual(queue({ state: "paused", message: "Paused" }));
    expect(parseQueue(PAUSED_WHY, REJECTING)).toEqual(
      queue({ state: "paused", message: "out of labels", accepting: false, rejectReason: "maintenance" }),
    );
    expect(parseQueue("", "")).toBeUndefined();
  });

  it("reads one job's status and alerts, and no other job's", () => {
    expect(parseJob(JOBS, "Q-1")).toEqual({ status: UNREACHABLE_TEXT, reasons: ["job-printing"] });
    expect(parseJob(JOBS, "Q-12")).toEqual({ status: "", reasons: [] });
    expect(parseJob(JOBS, "Q-2")).toBeUndefined();
  });
});

describe("the verdict", () => {
  it("a completed job printed; a cancelled or aborted one failed with why", () => {
    const running = (j: Partial<CupsJobView>) => ({
      server: "running" as const,
      queue: queue(),
      job: job(j),
    });
    expect(
      decideCupsJob(running({ where: "completed", reasons: ["processing-to-stop-point"] }), at(100)),
    ).toEqual({ kind: "printed" });
    expect(
      decideCupsJob(running({ where: "completed", reasons: ["job-canceled-by-user"] }), at(100)),
    ).toEqual({
      kind: "failed",
      cause: "the print job Q-1 was cancelled at the print server",
    });
    expect(
      decideCupsJob(
        running({ where: "completed", status: "Filter failed", reasons: ["job-completed-with-errors"] }),
        at(100),
      ),
    ).toEqual({ kind: "failed", cause: "the print server gave up the print job Q-1: Filter failed" });
    expect(decideCupsJob(running({ where: "unknown" }), at(100))).toEqual({
      kind: "failed",
      cause: "the print server no longer knows the print job Q-1",
    });
  });

  it("cupsd down, a queue missing, a paused queue: failed at once, each with its own cause", () => {
    expect(decideCupsJob({ server: "down" }, at(0))).toEqual({
      kind: "failed",
      cause: "the print server (cupsd) is not running",
    });
    expect(decideCupsJob({ server: "running", queue: undefined, job: job() }, at(0))).toEqual({
      kind: "failed",
      cause: "the printer Q is not installed in CUPS",
    });
    const paused = (message: string) => ({
      server: "running" as const,
      queue: queue({ state: "paused", message }),
      job: job(),
    });
    expect(decideCupsJob(paused("Paused"), at(0))).toEqual({
      kind: "failed",
      cause: "the print queue Q is paused",
    });
    expect(decideCupsJob(paused("out of labels"), at(0))).toEqual({
      kind: "failed",
      cause: "the print queue Q is paused (out of labels)",
    });
  });

  it("a job stopped by a filter's failure: failed at once, with the server's words", () => {
    const look = {
      server: "running" as const,
      queue: queue(),
      job: job({ status: "Filter failed", reasons: ["job-completed-with-errors"] }),
    };
    expect(decideCupsJob(look, at(100))).toEqual({
      kind: "failed",
      cause: "the print server could not convert the print job Q-1 for the printer Q (Filter failed)",
    });
  });

  it("an unreachable device: waiting with the backend's words, then failed once the limit has passed", () => {
    const look = {
      server: "running" as const,
      queue: queue({ state: "printing", message: UNREACHABLE_TEXT }),
      job: job({ status: UNREACHABLE_TEXT, reasons: ["job-printing"] }),
    };
    expect(decideCupsJob(look, at(CUPS_LIMITS.unreachableMs - 1))).toEqual({
      kind: "waiting",
      state: "printing",
      reason: UNREACHABLE_TEXT,
    });
    expect(decideCupsJob(look, at(CUPS_LIMITS.unreachableMs))).toEqual({
      kind: "failed",
      cause: `the printer Q cannot be reached (${UNREACHABLE_TEXT})`,
    });
    expect(CUPS_LIMITS.unreachableMs).toBeLessThanOrEqual(15_000 - 2000);
  });

  it("a command that failed otherwise: read again, failed only at the overall limit", () => {
    const look = { server: "unclear" as const, error: "lpstat: Broken pipe" };
    expect(decideCupsJob(look, at(0))).toEqual({
      kind: "waiting",
      state: "pending",
      reason: "lpstat: Broken pipe",
    });
    expect(decideCupsJob(look, at(CUPS_LIMITS.timeoutMs))).toEqual({
      kind: "failed",
      cause: "the print server did not say how the print job Q-1 went (lpstat: Broken pipe)",
    });
  });

  it("a job that is simply slow waits until the overall limit, then fails saying so", () => {
    const look = { server: "running" as const, queue: queue({ state: "printing" }), job: job() };
    expect(decideCupsJob(look, at(CUPS_LIMITS.timeoutMs - 1))).toEqual({
      kind: "waiting",
      state: "printing",
      reason: "queued",
    });
    expect(decideCupsJob(look, at(CUPS_LIMITS.timeoutMs))).toEqual({
      kind: "failed",
      cause: "the printer Q did not finish the print job Q-1 within 30 s",
    });
  });
});

describe("lp's and cancel's errors", () => {
  it("tells cupsd down, a rejecting queue, a missing queue apart", () => {
    // lp says "does not exist" when cupsd is down: lpstat -r tells them apart
    const gone = "lp: Error - The printer or class does not exist.";
    expect(submitFailure(gone, { queue: "Q", serverRunning: false })).toBe(
      "the print server (cupsd) is not running",
    );
    expect(submitFailure(gone, { queue: "Q", serverRunning: true })).toBe(
      "the printer Q is not installed in CUPS",
    );
    expect(
      submitFailure('lp: Destination "Q" is not accepting jobs.', {
        queue: "Q",
        serverRunning: true,
        rejectReason: "maintenance",
      }),
    ).toBe("the print queue Q is not accepting jobs (maintenance)");
    expect(submitFailure("lp: Forbidden", { queue: "Q", serverRunning: true })).toBe(
      "the print server refused the job: Forbidden",
    );
  });

  it("tells a cancelled job from one already ended and from cupsd down", () => {
    expect(cancelOutcome(undefined)).toBe("cancelled");
    expect(cancelOutcome("cancel: cancel-job failed: Job #1 is already completed - can't cancel.")).toBe(
      "already-ended",
    );
    expect(cancelOutcome("cancel: Unable to connect to server.")).toBe("server-down");
    expect(cancelOutcome("cancel: cancel-job failed: Forbidden")).toBe("refused");
  });
});
