/**
 * The outbox's bytes as the operator screen's notice reads them (docs/limits.md, domain/outbox-fill.ts):
 * the unit of work keeps an upper bound as notifications are added; the outbox monitor counts the real
 * bytes again only while that bound is near `outbox.maxUndeliveredBytes`, so a notice that deliveries
 * made untrue goes at the next check. A real SQLite file, the agent's own outbox and unit of work.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMqttRepo } from "../../../src/db/mqtt.repo.js";
import { createOutboxMonitor } from "../../../src/sync/outbox-monitor.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";

const LIMIT_BYTES = 1_000_000;
let t: TestAgent;

beforeAll(async () => {
  t = await startTestAgent({ outbox: { maxUndelivered: 1000, maxUndeliveredBytes: LIMIT_BYTES } });
});
afterAll(async () => t?.close());

function monitor() {
  const uow = t.agent.services.unitOfWork;
  return createOutboxMonitor({
    outbox: t.agent.services.repos.outbox,
    mqtt: createMqttRepo(t.agent.db.sqlite),
    warnDepth: 1000,
    warnAgeSeconds: 3600,
    limit: 1000,
    pruneDeliveredAfterHours: 24,
    inboxRetentionHours: 24,
    setUndelivered: (n) => uow.setUndelivered(n),
    bytes: {
      estimate: () => uow.undeliveredBytes(),
      set: (n) => uow.setUndeliveredBytes(n),
      limit: LIMIT_BYTES,
    },
    draining: () => false,
    now: () => t.clock.now,
    log: pino({ level: "silent" }),
  });
}

describe("the outbox's bytes, counted again near the bound", () => {
  it("an upper bound near the bound is corrected to the real bytes; one below it is left as it is", () => {
    const uow = t.agent.services.unitOfWork;
    uow.run((tx) =>
      tx.notify("order_information", { externalServiceRequestId: "B-1", state: "fulfillable" }),
    );
    const real = t.agent.services.repos.outbox.undeliveredBytes();
    expect(real).toBeGreaterThan(0);
    expect(uow.undeliveredBytes()).toBe(real);

    // below 80 %: not counted again (the bound cannot be near)
    uow.setUndeliveredBytes(real + 1000);
    monitor().check();
    expect(uow.undeliveredBytes()).toBe(real + 1000);

    // from 80 % on: the monitor's check counts the bytes, and the estimate is the real figure again
    uow.setUndeliveredBytes(0.85 * LIMIT_BYTES);
    monitor().check();
    expect(uow.undeliveredBytes()).toBe(real);
  });
});
