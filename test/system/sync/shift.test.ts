/**
 * The shift over the embedded broker (docs/mqtt.md#session-summaries): a session's summary reaches
 * central as a `session_summary` notification on the station's `notification` topic, and
 * `request/set_productivity_targets` sets the targets the seats' figures are shown against, refusing a
 * bad body with `validation_failed` naming the member and changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import type { TestAgent } from "../../support/agent.js";
import { ok } from "../../support/station.js";
import { agentOn, ask, centralOn, ROOT } from "../../support/sync/agent.js";
import type { Subscriber } from "../../support/sync/subscriber.js";

interface Answer {
  transaction: string;
  status: "ok" | "error";
  data: Record<string, unknown>;
  error: { code: string; errors?: Array<{ path: string }> } | null;
}

describe("the shift over MQTT", () => {
  let t: TestAgent;
  let central: Subscriber;
  const act = (body: Record<string, unknown>) =>
    ok(t.call("POST", "/station/seats/front/screen/actions", body));
  const screen = async () =>
    (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
  const targets = async (tx: string, body: Record<string, unknown>) =>
    JSON.parse(await ask(central, "set_productivity_targets", { transaction: tx, ...body })) as Answer;

  beforeAll(async () => {
    t = await agentOn("embedded");
    central = await centralOn(t, ["response/#", "notification"]);
  });
  afterAll(async () => {
    await central?.close();
    await t?.close();
  });

  it("publishes a session's summary as session_summary on the notification topic when it ends", async () => {
    const start = t.clock.now;
    await act({ type: "login", user: "ann" });
    t.clock.now += 90_000;
    await act({ type: "logout" });
    const topic = `${ROOT}/notification`;
    await central.waitFor("the session summary", () =>
      central.on(topic).some((m) => m.payload.includes('"session_summary"')),
    );
    const sent = central
      .on(topic)
      .map((m) => JSON.parse(m.payload) as { notification_type: string; notification_data: unknown })
      .filter((n) => n.notification_type === "session_summary");
    expect(sent.map((n) => n.notification_data)).toEqual([
      {
        seat: "front",
        operator: "ann",
        started_at: new Date(start).toISOString(),
        ended_at: new Date(start + 90_000).toISOString(),
        ended_by: "logout",
        lines: 0,
        units: 0,
        exceptions: {},
        idle_minutes: 1.5,
      },
    ]);
  });

  it("sets the targets, answers those in effect, and the screen shows them; null goes back to the configured", async () => {
    const set = await targets("pt-1", { linesPerHour: 150, unitsPerHour: 400 });
    expect(set).toMatchObject({ status: "ok", data: { linesPerHour: 150, unitsPerHour: 400 }, error: null });
    await act({ type: "login", user: "bob" });
    expect((await screen()).productivity?.targets).toEqual({ linesPerHour: 150, unitsPerHour: 400 });
    // a member left out stays; null: the configured (none by default)
    const cleared = await targets("pt-2", { unitsPerHour: null });
    expect(cleared.data).toEqual({ linesPerHour: 150, unitsPerHour: null });
    expect((await screen()).productivity?.targets).toEqual({ linesPerHour: 150, unitsPerHour: null });
    await act({ type: "logout" });
  });

  it("refuses a bad body with validation_failed naming the member, and changes nothing", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ linesPerHour: -1 }, "linesPerHour"],
      [{ linesPerHour: 1.5 }, "linesPerHour"],
      [{ unitsPerHour: "many" }, "unitsPerHour"],
      [{ linesPerHour: 100_001 }, "linesPerHour"],
      [{ shift: "early" }, ""],
      [{}, ""],
    ];
    let n = 0;
    for (const [body, path] of cases) {
      const r = await targets(`pt-bad-${n++}`, body);
      expect(r, JSON.stringify(body)).toMatchObject({
        status: "error",
        error: { code: "validation_failed" },
      });
      if (path) expect(r.error?.errors?.map((e) => e.path)).toContain(path);
    }
    expect(t.agent.services.shift.targets()).toEqual({ linesPerHour: 150, unitsPerHour: null });
  });
});
