/**
 * The tests' deadlines, and the one setting that stretches them all (docs/testing.md#deadlines).
 *
 * A deadline only catches a hang: a test waits for a condition and fails only when it never comes, so a
 * slow or busy machine makes a run longer, never red. Each deadline is written as what an idle 2-core
 * machine needs with room to spare and passes through `deadline()`, which multiplies it by
 * `PPS_EDGE_TEST_SLOWDOWN` (default 3: a 2-core machine at load 10, with the suite's own work beside two
 * busy processes). Waits that are the subject of a test (nothing may arrive within 2 s) and delays a test
 * configures the agent with are not deadlines and are not stretched.
 */

const DEFAULT_SLOWDOWN = 3;

function slowdownFrom(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_SLOWDOWN;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 1) {
    throw new Error(`PPS_EDGE_TEST_SLOWDOWN must be a number of at least 1, not "${value}"`);
  }
  return n;
}

/** How much every deadline is stretched. */
export const SLOWDOWN = slowdownFrom(process.env.PPS_EDGE_TEST_SLOWDOWN);

/** `ms`, an idle machine's deadline, stretched for this machine. */
export function deadline(ms: number): number {
  return Math.round(ms * SLOWDOWN);
}

/**
 * Resolves once `check` holds, checked every `everyMs`; fails after `deadline(ms)` naming `what` (and what
 * `seen` says of the state at that moment, when given).
 */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 5000,
  options: { everyMs?: number; seen?: () => string | Promise<string> } = {},
): Promise<void> {
  const limit = deadline(ms);
  const end = Date.now() + limit;
  for (;;) {
    if (await check()) return;
    if (Date.now() > end) {
      const seen = options.seen ? `; ${await options.seen()}` : "";
      throw new Error(`timed out after ${limit} ms waiting for ${what}${seen}`);
    }
    await new Promise((r) => setTimeout(r, options.everyMs ?? 10));
  }
}
