import type { Envelope } from "../../helpers/station.js";
import type { Central } from "./central.js";

/**
 * The notifications since the last mark, once at least `count` arrived (or after 5 s): for effects the
 * agent runs just after the call's commit (the staging evaluation after a stage call, the audit conflict
 * re-check after a pick or put change), which `since()` alone may read too early.
 */
export async function delivered(c: Central, count: number): Promise<Envelope[]> {
  const got: Envelope[] = [];
  const end = Date.now() + 5000;
  while (got.length < count && Date.now() < end) {
    got.push(...(await c.since()));
    if (got.length < count) await new Promise((r) => setTimeout(r, 10));
  }
  return got;
}
