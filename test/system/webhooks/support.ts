import type { DestinationStream } from "pino";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { PPS, SITE } from "../../support/sync/agent.js";
import { TEST_SECRET } from "../../support/webhook-receiver.js";

/** Fast retries, a short timeout, and loopback plain HTTP allowed: the receivers run on this computer. */
export const FAST_WEBHOOKS = {
  timeoutMs: 500,
  retryMinMs: 20,
  retryMaxMs: 100,
  allow: { loopback: true, plainHttp: true },
};

export function endpoint(id: string, url: string, extra: Record<string, unknown> = {}) {
  return { id, url, secret: TEST_SECRET, ...extra };
}

/**
 * An agent listening on a free port, delivering to the endpoints, on the real clock (the signature's
 * timestamp is checked against it by the verifier).
 */
export async function webhookAgent(
  endpoints: unknown[],
  more: Record<string, unknown> = {},
  mqtt: Record<string, unknown> = { url: "off" },
  logTo?: DestinationStream,
): Promise<TestAgent> {
  const t = await startTestAgent(
    {
      site: SITE,
      ppsId: PPS,
      mqtt,
      webhooks: { ...FAST_WEBHOOKS, endpoints, ...more },
      log: { level: "debug" },
    },
    { listen: true, ...(logTo ? { logTo } : {}) },
  );
  realClock(t);
  return t;
}

/** The agent's clock follows the real one from now on (a test may still shift it with `offset`). */
export function realClock(t: TestAgent, offset = { ms: 0 }): { ms: number } {
  Object.defineProperty(t.clock, "now", {
    get: () => Date.now() + offset.ms,
    set: () => {},
    configurable: true,
  });
  return offset;
}

/** Commits `n` notifications of `type`, one transaction each, as use cases do. */
export function commit(
  t: TestAgent,
  n: number,
  type: "order_information" | "bin_complete" = "order_information",
) {
  for (let i = 0; i < n; i++)
    t.agent.services.unitOfWork.run((tx) => tx.notify(type, { externalServiceRequestId: `R-${i}` }));
}
