/**
 * What central or a supervisor told a seat, on its screen (docs/station.md#pausing-a-seat): the pause
 * (who or what paused it and why), the seat's work shown paused on the bins as the lights show it
 * (bin-lights.ts `pausedWork`), nothing offered but resume while paused, and the message to acknowledge.
 * Pure: the shell reads the pauses and messages.
 */
import { PAUSED_LIGHT, pausedWork } from "../../bin-lights.js";
import type { Allowed, BinTile, ScreenInput, SeatMessage, SeatPause } from "./types.js";

export function pauseOf(input: ScreenInput): SeatPause | null {
  const sources = input.pauses ?? [];
  if (!sources.length) return null;
  return {
    sources: sources.map((s) => ({
      kind: s.kind,
      by: s.by,
      reason: s.reason,
      since: new Date(s.since).toISOString(),
    })),
    resumable: sources.some((s) => s.kind !== "input"),
  };
}

export function messageOf(input: ScreenInput): SeatMessage | null {
  const m = input.message;
  return m ? { id: m.id, text: m.text, by: m.by, sentAt: new Date(m.sentAt).toISOString() } : null;
}

/** While paused nothing is offered: every scan and tap is refused until the seat resumes. */
export function pausedAllowed(allowed: Allowed): Allowed {
  return {
    ...allowed,
    login: false,
    logout: false,
    confirm: false,
    closeSlot: false,
    keyin: false,
    cancel: false,
    exceptions: [],
    modes: [],
    language: false,
  };
}

/** The bins of paused seats' work show the pause, as their lights do. */
export function withPausedLights(tiles: BinTile[], input: ScreenInput): BinTile[] {
  const paused = pausedWork(input.seats, input.pausedSeats ?? new Set());
  if (!paused.bins.size) return tiles;
  return tiles.map((t) => (paused.bins.has(t.id) ? { ...t, light: PAUSED_LIGHT, actions: [] } : t));
}
