/**
 * The station at a glance, for a maintainer (`pps-edge status`) and for central (`request/health_check`):
 * what GET /readyz and GET /station/state say, in one summary. One builder for both, so they never
 * disagree: the agent fills in its live checks, the command line the ones the running agent answered.
 * A unit that reports to systemd (STATUS=) can take its line from `statusLine`.
 */
import type { OutboxRepo } from "../../db/outbox.repo.js";

export interface CheckResult {
  ok: boolean;
  detail?: string;
}

/** A readiness check as GET /readyz runs it. */
export interface ReadinessCheck {
  name: string;
  check: () => CheckResult;
}

export interface Readiness {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

/** Runs every check; one that throws fails with its message (GET /readyz). */
export function evaluateReadiness(checks: readonly ReadinessCheck[]): Readiness {
  const out: Record<string, CheckResult> = {};
  for (const chk of checks) {
    try {
      out[chk.name] = chk.check();
    } catch (e) {
      out[chk.name] = { ok: false, detail: (e as Error).message };
    }
  }
  return { ready: Object.values(out).every((r) => r.ok), checks: out };
}

/** The part of GET /station/state a summary shows. */
export interface StateFacts {
  mode: string;
  seats: Array<{ seat: string; user: string | null; loggedInAt: string | null }>;
  bins: Array<{
    ppsBinId: string;
    state: string;
    requests: Array<{ type: string; externalServiceRequestId: string }>;
  }>;
}

export interface StatusFacts {
  version: string;
  /** The agent holding the data folder, or null when none runs. */
  agent: { pid: number; since: string } | null;
  /** What the running agent's readiness checks say; a string when it could not be asked (why). */
  readiness: Readiness | string | null;
  outbox: Pick<OutboxRepo, "undeliveredCount" | "oldestUndelivered" | "deadCount" | "lastSeq">;
  state: StateFacts;
  now: number;
}

export interface StationStatus {
  version: string;
  running: boolean;
  pid: number | null;
  since: string | null;
  ready: boolean;
  /** Why not ready in one phrase, null when ready. */
  problem: string | null;
  checks: Record<string, CheckResult>;
  outbox: { undelivered: number; oldestUndeliveredAgeSeconds: number; deadLetters: number; lastSeq: number };
  mode: string;
  seats: Array<{ seat: string; user: string | null; loggedInAt: string | null }>;
  binsWithWork: Array<{ ppsBinId: string; state: string; requests: string[] }>;
}

function problemOf(f: StatusFacts): string | null {
  if (f.agent === null) return "the agent is not running";
  if (typeof f.readiness === "string") return `the running agent did not answer: ${f.readiness}`;
  if (f.readiness === null) return "the running agent was not asked";
  const failing = Object.entries(f.readiness.checks).filter(([, r]) => !r.ok);
  return failing.length === 0 ? null : `not ready: ${failing.map(([n]) => n).join(", ")}`;
}

export function stationStatus(f: StatusFacts): StationStatus {
  const oldest = f.outbox.oldestUndelivered();
  const problem = problemOf(f);
  return {
    version: f.version,
    running: f.agent !== null,
    pid: f.agent?.pid ?? null,
    since: f.agent?.since ?? null,
    ready: problem === null,
    problem,
    checks: f.readiness !== null && typeof f.readiness === "object" ? f.readiness.checks : {},
    outbox: {
      undelivered: f.outbox.undeliveredCount(),
      oldestUndeliveredAgeSeconds: oldest ? Math.max(0, Math.round((f.now - oldest.createdAt) / 1000)) : 0,
      deadLetters: f.outbox.deadCount(),
      lastSeq: f.outbox.lastSeq(),
    },
    mode: f.state.mode,
    seats: f.state.seats,
    binsWithWork: f.state.bins
      .filter((b) => b.requests.length > 0)
      .map((b) => ({
        ppsBinId: b.ppsBinId,
        state: b.state,
        requests: b.requests.map((r) => `${r.type} ${r.externalServiceRequestId}`),
      })),
  };
}

/** One line: ready or the problem, the outbox and the checks that fail (systemd's STATUS=, a log line). */
export function statusLine(s: StationStatus): string {
  const o = s.outbox;
  const backlog = `${o.undelivered} undelivered (oldest ${o.oldestUndeliveredAgeSeconds} s), ${o.deadLetters} dead letters`;
  return `${s.problem ?? "ready"}; outbox ${backlog}`;
}

/** The summary as lines of text (`pps-edge status`). */
export function statusText(s: StationStatus): string[] {
  const agent = s.running ? `running, pid ${s.pid}, since ${s.since}` : "not running";
  const lines = [`agent: ${agent}; version ${s.version}`, `ready: ${s.ready ? "yes" : `no (${s.problem})`}`];
  const width = Math.max(0, ...Object.keys(s.checks).map((n) => n.length));
  for (const [name, r] of Object.entries(s.checks))
    lines.push(
      `  ${name.padEnd(width)}  ${r.detail ? `${(r.ok ? "ok" : "FAIL").padEnd(4)}  ${r.detail}` : r.ok ? "ok" : "FAIL"}`,
    );
  const o = s.outbox;
  lines.push(
    `outbox: ${o.undelivered} undelivered, oldest ${o.oldestUndeliveredAgeSeconds} s; ${o.deadLetters} dead letters; last seq ${o.lastSeq}`,
    `mode: ${s.mode}`,
    `seats: ${s.seats.map((x) => `${x.seat} ${x.user === null ? "(nobody)" : `(${x.user} since ${x.loggedInAt})`}`).join(", ") || "none"}`,
    `bins with work:${s.binsWithWork.length === 0 ? " none" : ""}`,
  );
  for (const b of s.binsWithWork) lines.push(`  ${b.ppsBinId} (${b.state}): ${b.requests.join(", ")}`);
  return lines;
}
