// Types of rolling-restart.mjs for the TypeScript tests (test/system/fleet/rolling-restart.test.ts).
export interface RestartableNode {
  name: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}
export interface Restart {
  node: string;
  /** When the stop began (ms since the epoch). */
  at: number;
  stoppedMs: number;
  /** From `at` until the node was started and ready again. */
  backMs: number;
}
export function rollingRestart<N extends RestartableNode, F extends object>(
  nodes: N[],
  opts: {
    downMs?: number;
    gapMs?: number;
    ready?: (node: N) => Promise<void>;
    measure: (node: N) => Promise<(at: number) => Promise<F>>;
  },
): Promise<Array<Restart & F>>;
export interface WatchedStation {
  station: string;
  node(): string | undefined | Promise<string | undefined>;
  acked(): number | Promise<number>;
}
export function silences(
  stations: WatchedStation[],
  victimUrl: string,
  at: number,
  opts?: { timeoutMs?: number; everyMs?: number },
): Promise<Array<{ station: string; ms: number | null }>>;
export function simulatedSilence(
  connects: Array<{ at: number; firstAckAt?: number }>,
  at: number,
): number | null;
