/**
 * Scan debounce (pure; time is an input). A scanner that delivers one scan twice (docs/architecture.md#debounce,
 * docs/hardware.md#hid-keyboard-wedge-scanners: keystroke and intent output together, rapid repeats) must not count twice: a scan
 * whose text equals the previous scan of the same source, within `windowMs` of it, is dropped.
 * Only the previous scan is compared, so a deliberate repeat after another code (item, cancel, item)
 * always counts; and every scan, kept or dropped, restarts the window, so a stuttering scanner cannot
 * slip a copy through by repeating itself.
 */
export type DebounceState = ReadonlyMap<string, { value: string; at: number }>;

export function emptyDebounce(): DebounceState {
  return new Map();
}

export function debounce(
  state: DebounceState,
  scan: { source: string; value: string; at: number },
  windowMs: number,
): { drop: boolean; state: DebounceState } {
  const last = state.get(scan.source);
  const drop =
    windowMs > 0 && last !== undefined && last.value === scan.value && scan.at - last.at < windowMs;
  const next = new Map(state);
  next.set(scan.source, { value: scan.value, at: scan.at });
  return { drop, state: next };
}
