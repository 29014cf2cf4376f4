/**
 * A supervisor's badge scanned on the seat's own scanner (docs/station.md#supervisor-at-the-seat): while
 * the seat's supervisor prompt is open (the page tells the agent which tap it asks for, the
 * `supervisor_prompt` action), the badge authorises that tap exactly as the badge typed into the prompt
 * does: the same check of the credential and its throttle, the same stale-screen rule, the same
 * `supervisor_authorised` record with both names. The prompt learns the answer through the seat's state
 * (`supervisorScan`). With no prompt open the engine refuses the badge in words. The badge's text is
 * never kept, shown or logged.
 */
import type { Logger } from "pino";
import { AppError, isAppError } from "../../domain/errors.js";
import { supervisorAuthorisedEvent } from "../../domain/security-event.js";
import type { Outcome } from "../engine.js";
import { SCREEN_ACTION_OPERATION, type ScreenAction } from "./actions.js";
import type { SupervisorPort } from "./routes/screen.routes.js";
import { supervisedTaps } from "./screen-roles.js";
import type { SupervisorScanAnswer } from "./state/supervisor-types.js";

/** The tap the seat's open prompt asks a supervisor for, and who tapped it (their screen session's user). */
interface OpenPrompt {
  tap: ScreenAction;
  caller: string | null;
}

export interface SupervisorScanDeps {
  supervisor: SupervisorPort | undefined;
  /** Carries out the authorised tap as the screen's actions do (its stale-screen check included). */
  act(seat: string, tap: ScreenAction, by: string): Outcome | Promise<Outcome>;
  /** The seat's screen version now (the stale-tap rule). */
  version(seat: string): number;
  /** The seat's state changed (its `supervisorScan`): push it. */
  changed(): void;
  log: Logger;
}

export function createSupervisorScan(deps: SupervisorScanDeps) {
  const prompts = new Map<string, OpenPrompt>();
  const answers = new Map<string, { n: number; answer: SupervisorScanAnswer }>();

  function answered(seat: string, answer: SupervisorScanAnswer): void {
    answers.set(seat, { n: (answers.get(seat)?.n ?? 0) + 1, answer });
    deps.changed();
  }

  async function authorise(seat: string, badge: string, source: string, open: OpenPrompt): Promise<void> {
    const sup = deps.supervisor;
    // the throttle counts per seat and "address": a scanner has none, so it is named by its device
    const address = `scanner:${source}`;
    try {
      if (!sup) throw new Error("no supervisor can be checked here");
      const op = SCREEN_ACTION_OPERATION[open.tap.type];
      const user = await sup.authorise({ seat, address }, { badge }, op);
      const operator = sup.operator(seat);
      // the stale-tap rule, before the answer changes the screen (actions.ts `fresh` says it the same)
      const { version, ...tap } = open.tap;
      if (version !== undefined && version < deps.version(seat))
        throw new AppError("stale_screen", "the screen changed since this was tapped: look again");
      // one tap only: the prompt is used up whatever the tap's answer, and closes before the tap's change
      // reaches the screen
      prompts.delete(seat);
      answered(seat, "ok");
      const out = await deps.act(seat, tap, user.username);
      sup.record(
        supervisorAuthorisedEvent({
          supervisor: user.username,
          operator,
          seat,
          action: open.tap.type,
          result: out.result,
          reason: out.reason,
          caller: open.caller ?? undefined,
          address,
        }),
      );
    } catch (err) {
      const code = isAppError(err) ? err.code : null;
      if (code === "too_many_attempts") return answered(seat, "throttled");
      if (code === "forbidden") return answered(seat, "refused");
      prompts.delete(seat);
      if (code === "stale_screen") return answered(seat, "stale");
      deps.log.error({ err, seat }, "a supervisor's badge scanned at the seat failed");
      answered(seat, "other");
    }
  }

  return {
    /** The seat's supervisor prompt opened for `tap` (null: closed); only a supervisor's tap is asked for. */
    prompt(seat: string, tap: ScreenAction | null, caller: string | null, seen?: number): Outcome {
      if (tap !== null && !supervisedTaps().includes(tap.type))
        throw new AppError("validation_failed", `${tap.type} is not a supervisor's tap`, [
          { path: "pending.type", message: `not one of ${supervisedTaps().join(", ")}` },
        ]);
      // a page that has not seen the last answer yet tells of a prompt that answer closed
      const late = seen !== undefined && (answers.get(seat)?.n ?? 0) > seen;
      if (tap === null) prompts.delete(seat);
      else if (!late) prompts.set(seat, { tap, caller });
      return {
        seat,
        result: "done",
        did: tap === null ? "supervisor_prompt_closed" : "supervisor_prompt_open",
      };
    },
    /** A supervisor's badge scanned at the seat: taken for its open prompt, or null when none is open. */
    badge(seat: string, badge: string, source: string): Outcome | null {
      const open = prompts.get(seat);
      if (!open) return null;
      void authorise(seat, badge, source, open);
      return { seat, result: "done", as: "supervisor_badge", calls: [] };
    },
    /** The last answer to a badge scanned at the seat (the prompt shows it), or null. */
    answer: (seat: string) => answers.get(seat) ?? null,
  };
}

export type SupervisorScan = ReturnType<typeof createSupervisorScan>;
