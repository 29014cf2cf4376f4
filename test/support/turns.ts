/**
 * Counts turns of the event loop while a test runs: `now()` is the turn a callback runs in, so a test
 * can say how much work went in one turn and that the loop kept turning
 * (docs/architecture.md#performance-targets). Stop it at the end.
 */
export function turnCounter(): { now(): number; stop(): void } {
  let turn = 0;
  let ticking = true;
  const tick = () => {
    turn++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turn,
    stop: () => {
      ticking = false;
    },
  };
}
