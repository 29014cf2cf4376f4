/**
 * What a CUPS print job's state means for the label (docs/hardware.md#cups-verdicts): from what `lpstat`
 * printed about the queue and the job, and the time since the job was sent, decide whether it is still
 * printing, printed, or failed, with the cause in words. Pure: the commands run in cups-printer.ts, the
 * clock is an input.
 */

/** The queue as `lpstat -l -p Q` and `lpstat -a Q` describe it. */
export interface CupsQueueView {
  /** `idle`, `printing` (a job is being sent) or `paused` (`cupsdisable`: lpstat's "disabled"). */
  state: "idle" | "printing" | "paused";
  /** printer-state-message: what the backend or the administrator last said ("" when nothing). */
  message: string;
  /** printer-state-reasons (lpstat's "Alerts"); `none` is left out. */
  reasons: string[];
  accepting: boolean;
  /** Why it rejects jobs (`cupsreject -r`), "" when none was given. */
  rejectReason: string;
}

/** A job as `lpstat -l -W not-completed|completed -o Q` lists it. */
export interface CupsJobView {
  /** In the not-completed list, in the completed list (completed, cancelled or aborted), or in neither. */
  where: "pending" | "completed" | "unknown";
  /** job-printer-state-message (lpstat's "Status"). */
  status: string;
  /** job-state-reasons (lpstat's "Alerts"). */
  reasons: string[];
}

/**
 * One look at the print server: it is not running, a command failed otherwise (`unclear`: a timeout, a
 * refusal), or the queue (absent: not installed) and the job.
 */
export type CupsLook =
  | { server: "down" }
  | { server: "unclear"; error: string }
  | { server: "running"; queue: CupsQueueView | undefined; job: CupsJobView };

export type CupsVerdict =
  | { kind: "waiting"; state: "pending" | "printing"; reason: string }
  | { kind: "printed" }
  | { kind: "failed"; cause: string };

export interface CupsLimits {
  /** A job the printer cannot be reached for, for this long since it was sent, has failed. */
  unreachableMs: number;
  /** A job not done after this long, whatever the queue says, has failed. */
  timeoutMs: number;
}

/** docs/hardware.md#cups-verdicts: each cause is told within 15 s of the job's submission. */
export const CUPS_LIMITS: CupsLimits = { unreachableMs: 8000, timeoutMs: 30_000 };

export const CUPSD_DOWN = "the print server (cupsd) is not running";

/** What the socket, ipp and lpd backends say while they cannot reach the device (CUPS 2.4's texts). */
const UNREACHABLE =
  /may not exist|unavailable|unable to connect|connection refused|unable to locate|not responding|no route|network is unreachable|offline|timed out/i;

const notInstalled = (queue: string) => `the printer ${queue} is not installed in CUPS`;

/** The cause a paused queue's message adds ("" for CUPS's own "Paused"). */
function pausedCause(queue: string, message: string): string {
  const why = message && !/^paused\.?$/i.test(message) ? ` (${message})` : "";
  return `the print queue ${queue} is paused${why}`;
}

/** The verdict on job `jobId` of `queue`, `elapsedMs` after it was sent. */
export function decideCupsJob(
  look: CupsLook,
  at: { queue: string; jobId: string; elapsedMs: number },
  limits: CupsLimits = CUPS_LIMITS,
): CupsVerdict {
  if (look.server === "down") return { kind: "failed", cause: CUPSD_DOWN };
  // a command that failed once says nothing of the job yet: it is read again until the overall limit
  if (look.server === "unclear")
    return at.elapsedMs >= limits.timeoutMs
      ? {
          kind: "failed",
          cause: `the print server did not say how the print job ${at.jobId} went (${look.error})`,
        }
      : { kind: "waiting", state: "pending", reason: look.error };
  const { queue, job } = look;
  const id = at.jobId;
  if (!queue) return { kind: "failed", cause: notInstalled(at.queue) };
  if (job.where === "completed") {
    if (job.reasons.some((r) => r.startsWith("job-canceled")))
      return { kind: "failed", cause: `the print job ${id} was cancelled at the print server` };
    if (job.reasons.some((r) => r === "aborted-by-system" || r === "job-completed-with-errors"))
      return {
        kind: "failed",
        cause: `the print server gave up the print job ${id}${job.status ? `: ${job.status}` : ""}`,
      };
    return { kind: "printed" };
  }
  if (job.where === "unknown")
    return { kind: "failed", cause: `the print server no longer knows the print job ${id}` };
  if (queue.state === "paused") return { kind: "failed", cause: pausedCause(at.queue, queue.message) };
  // a filter that failed stops the job where it is: it will not print without someone
  if (job.reasons.includes("job-completed-with-errors") || /filter failed/i.test(job.status))
    return {
      kind: "failed",
      cause: `the print server could not convert the print job ${id} for the printer ${at.queue} (${job.status || "filter failed"})`,
    };
  if (job.reasons.some((r) => r.startsWith("job-hold")))
    return { kind: "failed", cause: `the print job ${id} is held at the print server` };
  // what the backend says of our job, or of the queue while it sends a job
  const said = job.status || (queue.state === "printing" ? queue.message : "");
  if (UNREACHABLE.test(said) && at.elapsedMs >= limits.unreachableMs)
    return { kind: "failed", cause: `the printer ${at.queue} cannot be reached (${said})` };
  if (at.elapsedMs >= limits.timeoutMs)
    return {
      kind: "failed",
      cause: `the printer ${at.queue} did not finish the print job ${id} within ${Math.round(limits.timeoutMs / 1000)} s${said ? ` (${said})` : ""}`,
    };
  const reason = said || (queue.accepting ? "queued" : "queued; the queue no longer accepts new jobs");
  return { kind: "waiting", state: queue.state === "printing" ? "printing" : "pending", reason };
}

/** Why `lp` refused the job, from its error text (the server's state told apart by `lpstat -r`). */
export function submitFailure(
  error: string,
  at: { queue: string; serverRunning: boolean; rejectReason?: string },
): string {
  if (!at.serverRunning) return CUPSD_DOWN;
  if (/not accepting jobs/i.test(error))
    return `the print queue ${at.queue} is not accepting jobs${at.rejectReason ? ` (${at.rejectReason})` : ""}`;
  if (/does not exist|unknown destination|invalid destination|not found/i.test(error))
    return notInstalled(at.queue);
  return `the print server refused the job: ${error.replace(/^lp:\s*/, "").trim()}`;
}

/** What `cancel` answered: done (cancelled, or already ended), or the server is down. */
export function cancelOutcome(
  error: string | undefined,
): "cancelled" | "already-ended" | "server-down" | "refused" {
  if (error === undefined) return "cancelled";
  if (/already (completed|canceled|cancelled|aborted)|does not exist/i.test(error)) return "already-ended";
  if (/unable to connect|scheduler is not running|connection refused/i.test(error)) return "server-down";
  return "refused";
}

/** `lpstat -l -p Q`: the first line's state, the message lines under it, the Alerts line. */
export function parseQueue(lpstatP: string, lpstatA: string): CupsQueueView | undefined {
  const lines = lpstatP.split("\n");
  const head = lines[0] ?? "";
  const m = /^printer \S+ (is idle|now printing \S+|disabled since)/.exec(head);
  if (!m) return undefined;
  const state: CupsQueueView["state"] = m[1]?.startsWith("disabled")
    ? "paused"
    : m[1]?.startsWith("now")
      ? "printing"
      : "idle";
  const message: string[] = [];
  for (const line of lines.slice(1)) {
    if (!line.startsWith("\t") || /^\t(Form mounted|Description|Alerts):/.test(line)) break;
    message.push(line.trim());
  }
  const alerts = /^\tAlerts:(.*)$/m.exec(lpstatP)?.[1]?.trim() ?? "";
  const a = lpstatA.split("\n");
  const accepting = !/ not accepting /.test(a[0] ?? "");
  return {
    state,
    message: message.join(" ").trim(),
    reasons: alerts.split(/\s+/).filter((r) => r && r !== "none"),
    accepting,
    rejectReason: accepting ? "" : (a[1]?.trim() ?? ""),
  };
}

/** The block of `jobId` in `lpstat -l -o` output (its Status and Alerts lines), or undefined. */
export function parseJob(lpstatO: string, jobId: string): { status: string; reasons: string[] } | undefined {
  const lines = lpstatO.split("\n");
  const at = lines.findIndex((l) => l.split(/\s+/)[0] === jobId);
  if (at < 0) return undefined;
  let status = "";
  let reasons: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!line.startsWith("\t")) break;
    const s = /^\tStatus:(.*)$/.exec(line);
    if (s) status = (s[1] ?? "").trim();
    const r = /^\tAlerts:(.*)$/.exec(line);
    if (r)
      reasons = (r[1] ?? "")
        .trim()
        .split(/\s+/)
        .filter((x) => x && x !== "none");
  }
  return { status, reasons };
}
