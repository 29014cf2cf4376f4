/**
 * The version of a seat's screen state (pure; docs/decisions.md "The stale-tap rule").
 * It grows by one whenever what the seat's operator acts on changes, and only then: the state less
 * its `version`, its `devices` (the whole station's device list: a health change of a device that is
 * not this seat's would make every tap stale; this seat's own trouble is in `notices`), its `sound`
 * (it follows `lastEvent`), the `productivity` figures and the `idle` countdown (they move with the
 * clock) and the bins' `light` (another seat's work lights bins here too; a
 * tile's state, orders, actions, signal and outcome stay in). A tap that carries an older version is
 * refused (`stale_screen`): it was made on a screen that has changed since.
 */
import type { ScreenState } from "./types.js";

export interface Versioned {
  version: number;
  /** what the version was given for */
  key: string | null;
}

export const FIRST: Versioned = { version: 1, key: null };

/** The part of the state a version covers, as text. */
export function versionKey(state: Omit<ScreenState, "version">): string {
  // the figures and the idle countdown move with the clock: no reason to look again before a tap
  const { devices: _devices, sound: _sound, productivity: _p, idle: _i, ...rest } = state as ScreenState;
  const { version: _version, ...own } = rest;
  return JSON.stringify({ ...own, bins: own.bins.map(({ light: _light, ...b }) => b) });
}

/** The version for `state`: the same when the state is the same, else one more. */
export function nextVersion(prev: Versioned, state: Omit<ScreenState, "version">): Versioned {
  const key = versionKey(state);
  if (prev.key === null) return { version: prev.version, key };
  return key === prev.key ? prev : { version: prev.version + 1, key };
}
