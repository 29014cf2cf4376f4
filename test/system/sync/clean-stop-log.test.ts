/**
 * A planned stop is no fault: the log says at info level that the agent disconnected from the broker,
 * and keeps the warning "mqtt: connection lost" for a connection that was lost (docs/operations.md#logs:
 * a warning is something to look at).
 */
import { afterEach, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { until } from "../../support/deadline.js";
import { LogLines } from "../../support/log-lines.js";
import { FAST, PPS, SITE } from "../../support/sync/agent.js";
import { startAedes, type TestBroker } from "../../support/sync/brokers.js";

let broker: TestBroker | undefined;
afterEach(async () => {
  await broker?.close();
  broker = undefined;
});

/** The log lines whose message is `msg`, as [level, msg]. */
function logged(lines: LogLines, msg: string): Array<[string, string]> {
  return lines.lines
    .map((l) => JSON.parse(l) as { level: string | number; msg: string })
    .filter((l) => l.msg === msg)
    .map((l) => [String(l.level), l.msg]);
}

/** An agent on `b` logging at info into lines the test reads. */
async function loggedAgent(b: TestBroker): Promise<{ t: TestAgent; lines: LogLines }> {
  const lines = new LogLines();
  const t = await startTestAgent(
    {
      site: SITE,
      ppsId: PPS,
      log: { level: "info" },
      mqtt: { url: b.url, protocolVersion: b.protocolVersion, ...FAST },
    },
    { listen: true, logTo: lines },
  );
  return { t, lines };
}

describe("the log of the broker connection", () => {
  it("a clean stop: disconnected, at info; no connection lost", async () => {
    broker = await startAedes();
    const { t, lines } = await loggedAgent(broker);
    await until("the agent connected", () => logged(lines, "mqtt: connected").length > 0, 10_000);
    await t.close();
    expect(logged(lines, "mqtt: connection lost")).toEqual([]);
    expect(logged(lines, "mqtt: disconnected (stopping)")).toEqual([
      ["info", "mqtt: disconnected (stopping)"],
    ]);
  });

  it("a connection the broker drops: connection lost, a warning", async () => {
    broker = await startAedes();
    const { t, lines } = await loggedAgent(broker);
    try {
      await until("the agent connected", () => logged(lines, "mqtt: connected").length > 0, 10_000);
      await broker.stop();
      await until("the loss logged", () => logged(lines, "mqtt: connection lost").length > 0, 10_000);
      expect(logged(lines, "mqtt: connection lost")[0]).toEqual(["warn", "mqtt: connection lost"]);
    } finally {
      await t.close();
    }
  });
});
