/**
 * The shift at the seats (docs/station.md#productivity-and-the-shift, docs/station.md#idle-logout): each
 * operator's session from login to logout, its tally (lines, units, exceptions, idle time) from the
 * engine's committed calls, the productivity figures the screen shows, and the idle logout's timer. The
 * decisions are pure (domain/idle-logout.ts, domain/productivity.ts, domain/session-summary.ts); this
 * keeps the clock, the timer and the sessions in memory, and sums each session up inside the
 * transaction of its logout (by any path: a badge, a tap, the station API, central, an idle sign-out).
 */
import type { Logger } from "pino";
import { idleDecision, secondsLeft } from "../../domain/idle-logout.js";
import {
  type Productivity,
  type ProductivityTargets,
  productivityOf,
  type WorkDone,
  withinWindow,
} from "../../domain/productivity.js";
import {
  emptyTally,
  type OpenSession,
  type SessionEndReason,
  type SessionSummary,
  type SessionTally,
  summaryOf,
  tallied,
} from "../../domain/session-summary.js";
import type { EventBus } from "../../events.js";
import type { EngineInput, Outcome } from "../engine.js";
import type { WorkWatcher } from "../engine.shift.js";
import type { SeatState } from "../seat.types.js";
import { type WorkOfInput, workOfCalls } from "./work-of-calls.js";

const OWNER = "shift";
/** How often the figures on the screens are refreshed while nothing happens (the window slides). */
const FIGURES_EVERY_MS = 30_000;

interface Session {
  operator: string;
  /** when the operator logged in (the seat's `logged_in_at`): a session is one login */
  loggedInAt: number | null;
  startedAt: number;
  tally: SessionTally;
  /** the work of (at least) the last 15 minutes */
  recent: WorkDone[];
}

export type SeatIdleView =
  | { kind: "warning"; logoutAt: number; seconds: number }
  | { kind: "signed_out"; operator: string };

export interface ShiftShellDeps {
  engine: {
    watch(w: (input: EngineInput, outcome: Outcome) => void): void;
    watchWork(w: WorkWatcher): void;
    seats(): Array<{ seat: string } & SeatState>;
    signOut(seat: string): void;
  };
  bus: EventBus;
  seats: readonly string[];
  /** who is logged in at the seat and since when (the station's seats table) */
  seat(name: string): { userName: string | null; loggedInAt: number | null } | undefined;
  shift: {
    sessionEnded(s: SessionSummary): void;
    targets(): ProductivityTargets;
    /** keeps the open session's tally, as `latest` says when written, so a restart goes on counting */
    sessionWorked(latest: () => OpenSession | null): Promise<void>;
    /** the tally kept for this login of the seat, or null */
    openSession(seat: string, operator: string, loggedInAt: number | null): OpenSession | null;
    /** Sums up a session inside its logout's transaction (docs/mqtt.md#session-summaries). */
    summarising?(fn: ((seat: string, at: number) => SessionSummary | null) | undefined): void;
  };
  idleLogoutMs: number;
  idleWarningMs: number;
  now: () => number;
  log: Logger;
}

/** The shell's memory: the open sessions, the warnings shown and who was signed out for idling. */
interface Shift {
  deps: ShiftShellDeps;
  sessions: Map<string, Session>;
  /** the operator signed out for idling, by seat, until someone logs in there */
  signedOut: Map<string, string>;
  /** the sign-out time of each seat being warned */
  warnings: Map<string, number>;
  lastFigures: number;
  /** the tally of each seat whose write waits for its commit */
  unkept: Map<string, OpenSession>;
  /** the session summed up inside its logout's transaction, by seat: not written again when it ends */
  summarised: Map<string, Session>;
  /** the session being signed out for idling (already out of `sessions`), by seat */
  idling: Map<string, Session>;
}

const NO_WORK: WorkOfInput = { lines: 0, units: 0, exceptions: [] };

const inHand = (s: SeatState | undefined): boolean =>
  s !== undefined && (s.step !== "ready" || s.tote !== null);

function end(sh: Shift, seat: string, s: Session, at: number, by: SessionEndReason): void {
  sh.sessions.delete(seat);
  sh.warnings.delete(seat);
  // a tally write still waiting finds nothing: the session's row goes with its summary
  sh.unkept.delete(seat);
  if (sh.summarised.get(seat) === s) {
    sh.summarised.delete(seat);
    return;
  }
  const summary = summaryOf({ seat, operator: s.operator, startedAt: s.startedAt, tally: s.tally }, at, by);
  try {
    sh.deps.shift.sessionEnded(summary);
  } catch (err) {
    sh.deps.log.error({ err, seat, operator: s.operator }, "the session summary was not stored");
  }
}

/**
 * A session that begins now, or goes on after an agent restart from the tally kept for this login
 * (docs/station.md#productivity-and-the-shift); idle from now on either way: an operator still logged in
 * when the agent starts again is not signed out at once, and the restart's gap is nobody's idle time.
 */
function opened(sh: Shift, seat: string, operator: string, loggedInAt: number | null, now: number): Session {
  let kept: OpenSession | null = null;
  try {
    kept = sh.deps.shift.openSession(seat, operator, loggedInAt);
  } catch (err) {
    sh.deps.log.error({ err, seat }, "the open session's tally could not be read; counting starts again");
  }
  if (kept)
    return {
      operator,
      loggedInAt,
      startedAt: kept.startedAt,
      tally: { ...kept.tally, lastActivity: now },
      recent: withinWindow(kept.recent, now),
    };
  return {
    operator,
    loggedInAt,
    startedAt: Math.min(loggedInAt ?? now, now),
    tally: emptyTally(now),
    recent: [],
  };
}

/**
 * Keeps the session's tally after work: a restart goes on from it (a failure costs only the figures).
 * One write per seat waits at a time, with the latest tally when it runs.
 */
function keep(sh: Shift, seat: string, s: Session): void {
  const waiting = sh.unkept.has(seat);
  sh.unkept.set(seat, { seat, ...s });
  if (waiting) return;
  const latest = (): OpenSession | null => {
    const open = sh.unkept.get(seat) ?? null;
    sh.unkept.delete(seat);
    return open;
  };
  sh.deps.shift.sessionWorked(latest).catch((err: unknown) => {
    sh.deps.log.error({ err, seat }, "the open session's tally was not kept");
  });
}

/** The summary of the session ending at the seat, asked inside its logout's transaction; null: none. */
function summarise(sh: Shift, seat: string, at: number): SessionSummary | null {
  const idle = sh.idling.get(seat);
  const s = idle ?? sh.sessions.get(seat);
  if (!s) return null;
  sh.summarised.set(seat, s);
  return summaryOf(
    { seat, operator: s.operator, startedAt: s.startedAt, tally: s.tally },
    at,
    idle ? "idle" : "logout",
  );
}

/** Starts and ends sessions as the seats' operators changed, by whatever path. */
function follow(sh: Shift): void {
  const now = sh.deps.now();
  for (const seat of sh.deps.seats) {
    const row = sh.deps.seat(seat);
    const user = row?.userName ?? null;
    const loggedInAt = row?.loggedInAt ?? null;
    const s = sh.sessions.get(seat);
    if (s && (s.operator !== user || s.loggedInAt !== loggedInAt)) end(sh, seat, s, now, "logout");
    if (user !== null && !sh.sessions.has(seat)) {
      sh.sessions.set(seat, opened(sh, seat, user, loggedInAt, now));
      sh.signedOut.delete(seat);
    }
  }
}

/** An input at the seat: the operator is active, and what it did counts. */
function activity(sh: Shift, seat: string, work: WorkOfInput): void {
  const s = sh.sessions.get(seat);
  if (!s) return;
  const at = sh.deps.now();
  s.tally = tallied(s.tally, at, work);
  if (work.lines > 0)
    s.recent = [...withinWindow(s.recent, at), { at, lines: work.lines, units: work.units }];
  sh.warnings.delete(seat);
  if (work.lines > 0 || work.exceptions.length > 0) keep(sh, seat, s);
}

function signOut(sh: Shift, seat: string, s: Session, now: number): void {
  // out of the open sessions first: the logout's own change must not end it a second time
  sh.sessions.delete(seat);
  sh.idling.set(seat, s);
  try {
    sh.deps.engine.signOut(seat);
  } catch (err) {
    sh.idling.delete(seat);
    sh.summarised.delete(seat);
    sh.sessions.set(seat, s);
    sh.deps.log.error({ err, seat }, "idle sign-out failed; it is tried again");
    return;
  }
  sh.idling.delete(seat);
  sh.deps.log.info({ event: "idle_logout", seat, operator: s.operator }, "operator signed out after idling");
  sh.signedOut.set(seat, s.operator);
  end(sh, seat, s, now, "idle");
}

/** The timer's turn: warnings, sign-outs and, now and then, fresh figures; true when the screens change. */
function tick(sh: Shift): boolean {
  const { deps } = sh;
  const now = deps.now();
  const states = new Map(deps.engine.seats().map(({ seat, ...st }) => [seat, st as SeatState]));
  let push = false;
  for (const [seat, s] of [...sh.sessions]) {
    const d = idleDecision({
      operator: s.operator,
      lastActivity: s.tally.lastActivity,
      workInHand: inHand(states.get(seat)),
      now,
      idleLogoutMs: deps.idleLogoutMs,
      warningMs: deps.idleWarningMs,
    });
    if (d.kind === "sign_out") signOut(sh, seat, s, now);
    else if (d.kind === "warn") sh.warnings.set(seat, d.logoutAt);
    const cleared = d.kind === "active" && sh.warnings.delete(seat);
    if (d.kind !== "active" || cleared) push = true;
  }
  if (now - sh.lastFigures >= FIGURES_EVERY_MS) {
    sh.lastFigures = now;
    push = true;
  }
  return push;
}

export function createShiftShell(deps: ShiftShellDeps) {
  const sh: Shift = {
    deps,
    sessions: new Map(),
    signedOut: new Map(),
    warnings: new Map(),
    lastFigures: 0,
    unkept: new Map(),
    summarised: new Map(),
    idling: new Map(),
  };
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const l of listeners) l();
  };
  // the countdown moves by the second; a short idle time (tests, a demo) is checked more often
  const every = Math.max(50, Math.min(1000, Math.floor(deps.idleLogoutMs / 5) || 1000));

  return {
    /** The seat's figures now, or null with nobody logged in. */
    productivity(seat: string): Productivity | null {
      const s = sh.sessions.get(seat);
      if (!s) return null;
      const totals = { lines: s.tally.lines, units: s.tally.units };
      const targets = deps.shift.targets();
      return productivityOf({ since: s.startedAt, now: deps.now(), totals, recent: s.recent, targets });
    },
    /** The idle warning or sign-out the seat shows, or null. */
    idle(seat: string): SeatIdleView | null {
      const logoutAt = sh.warnings.get(seat);
      if (logoutAt !== undefined)
        return { kind: "warning", logoutAt, seconds: secondsLeft(logoutAt, deps.now()) };
      const who = sh.signedOut.get(seat);
      return who === undefined ? null : { kind: "signed_out", operator: who };
    },
    /** A tap at the seat that is no engine input (a station operation, a language): the operator is active. */
    touch(seat: string): void {
      if (running) activity(sh, seat, NO_WORK);
    },
    /** Calls `listener` whenever the screens show something new (a warning, its countdown, the figures). */
    onChange(listener: () => void): void {
      listeners.add(listener);
    },
    start(): void {
      running = true;
      follow(sh);
      deps.shift.summarising?.((seat, at) => (running ? summarise(sh, seat, at) : null));
      deps.engine.watch((_input, outcome) => {
        if (!running) return;
        follow(sh);
        if (outcome.seat !== null) activity(sh, outcome.seat, NO_WORK);
      });
      deps.engine.watchWork((seat, calls) => {
        if (!running) return;
        follow(sh);
        activity(sh, seat, workOfCalls(calls));
      });
      deps.bus.on(OWNER, "station", () => follow(sh));
      timer = setInterval(() => {
        try {
          if (tick(sh)) changed();
        } catch (err) {
          deps.log.error({ err }, "shift timer failed");
        }
      }, every);
      timer.unref();
    },
    stop(): void {
      running = false;
      deps.shift.summarising?.(undefined);
      deps.bus.off(OWNER);
      listeners.clear();
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

export type ShiftShell = ReturnType<typeof createShiftShell>;
