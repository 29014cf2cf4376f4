/**
 * The fuzz's knobs, from the environment: `FUZZ_SEED` (one seed for the whole run, printed in every
 * summary line), `FUZZ_RUNS` (generated requests per route or request kind, default 1,000), and for
 * replaying one failure `FUZZ_ROUTE` (the route or request kind) with `FUZZ_PATH` (fast-check's path).
 */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

export const seed = (): number => SEED;

/** Each route's (or request kind's) own seed, from the run's and its name: routes do not all get the same bodies. */
export function seedOf(name: string): number {
  let h = SEED;
  for (const ch of name) h = (Math.imul(h, 31) + (ch.codePointAt(0) ?? 0)) | 0;
  return h;
}
export const runs = (): number => Number(process.env.FUZZ_RUNS ?? 1000);

/** Only the route or request kind being replayed runs, and only along the failing path. */
export function selected(name: string): boolean {
  return !process.env.FUZZ_ROUTE || process.env.FUZZ_ROUTE === name;
}

export function replay(name: string): { path?: string } {
  return process.env.FUZZ_PATH && process.env.FUZZ_ROUTE === name ? { path: process.env.FUZZ_PATH } : {};
}

export interface RouteStats {
  name: string;
  tried: number;
  statuses: Map<number, number>;
  count(status: number): void;
}

/** One line per route or request kind: how many were tried, how many answers were 5xx, the statuses seen. */
export function summary(s: RouteStats): string {
  const fivexx = [...s.statuses].filter(([st]) => st >= 500).reduce((n, [, c]) => n + c, 0);
  const seen = [...s.statuses]
    .sort(([a], [b]) => a - b)
    .map(([st, c]) => `${st}×${c}`)
    .join(" ");
  return `fuzz ${s.name}: ${s.tried} tried, ${fivexx} 5xx (${seen}) seed ${SEED}`;
}

export function newStats(name: string): RouteStats {
  const statuses = new Map<number, number>();
  return {
    name,
    tried: 0,
    statuses,
    count(status) {
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    },
  };
}
