/**
 * A seat's pause as a pure function of its pause sources (docs/station.md#pausing-a-seat): the seat is
 * paused while at least one source holds it. Central and a supervisor are people deciding, so a resume
 * by either clears both of their pauses; a pause input (an e-stop, a light curtain) is a level and
 * clears only when the input clears. Each change of the sources is one notification carrying the whole
 * list (docs/mqtt.md#seat-notifications). Pure: no IO, no clock (`at` is an input).
 */

/** Who holds a pause: central, a supervisor at the screen, or a configured input (`input:<device>/<channel>`). */
export type PauseKind = "central" | "supervisor" | "input";

export interface PauseSource {
  /** `central`, `supervisor`, or `input:<device>/<channel>`: one pause per source and seat */
  source: string;
  kind: PauseKind;
  /** the user, or the input's device and channel */
  by: string;
  reason: string;
  /** epoch ms */
  since: number;
}

export type PauseInput =
  | { type: "pause"; kind: "central" | "supervisor"; by: string; reason: string; at: number }
  | { type: "resume"; kind: "central" | "supervisor"; by: string; at: number }
  /** a pause input's level: active holds the seat, clear lets go of it */
  | { type: "input"; device: string; channel: string; active: boolean; reason: string; at: number };

export interface PauseChange {
  action: "pause" | "resume";
  source: string;
  by: string;
}

export type PauseStep =
  | { changed: false; sources: PauseSource[] }
  | { changed: true; sources: PauseSource[]; change: PauseChange };

/** The source key of a pause input. */
export const inputSource = (device: string, channel: string): string => `input:${device}/${channel}`;

const MANUAL = new Set<PauseKind>(["central", "supervisor"]);

/** The seat's sources after one input, and whether they changed (nothing changes: no notification). */
export function pauseStep(sources: readonly PauseSource[], input: PauseInput): PauseStep {
  const list = [...sources];
  if (input.type === "pause") {
    const kept = list.filter((s) => s.source !== input.kind);
    const same = list.find((s) => s.source === input.kind);
    if (same && same.reason === input.reason && same.by === input.by)
      return { changed: false, sources: list };
    const next = {
      source: input.kind,
      kind: input.kind,
      by: input.by,
      reason: input.reason,
      since: input.at,
    };
    return {
      changed: true,
      sources: [...kept, next],
      change: { action: "pause", source: input.kind, by: input.by },
    };
  }
  if (input.type === "resume") {
    const kept = list.filter((s) => !MANUAL.has(s.kind));
    if (kept.length === list.length) return { changed: false, sources: list };
    return { changed: true, sources: kept, change: { action: "resume", source: input.kind, by: input.by } };
  }
  const source = inputSource(input.device, input.channel);
  const by = `${input.device}/${input.channel}`;
  const held = list.some((s) => s.source === source);
  if (input.active === held) return { changed: false, sources: list };
  if (!input.active)
    return {
      changed: true,
      sources: list.filter((s) => s.source !== source),
      change: { action: "resume", source, by },
    };
  const next: PauseSource = { source, kind: "input", by, reason: input.reason, since: input.at };
  return { changed: true, sources: [...list, next], change: { action: "pause", source, by } };
}

/** Whether a manual resume can do anything: only central's and a supervisor's pauses are theirs to clear. */
export function resumable(sources: readonly PauseSource[]): boolean {
  return sources.some((s) => MANUAL.has(s.kind));
}

/** The notification of one change: `seat_paused` while a source remains, `seat_resumed` when none does. */
export function pauseNotification(seat: string, step: Extract<PauseStep, { changed: true }>, at: string) {
  return {
    type: step.sources.length ? ("seat_paused" as const) : ("seat_resumed" as const),
    data: {
      seat,
      paused: step.sources.length > 0,
      change: step.change,
      sources: step.sources.map((s) => ({
        source: s.source,
        by: s.by,
        reason: s.reason,
        since: new Date(s.since).toISOString(),
      })),
      timestamp: at,
    },
  };
}
