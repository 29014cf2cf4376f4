/**
 * The shift at a seat in the agent (in-process, a real SQLite file, the agent's clock moved by the test):
 * the productivity figures on the screen state against the configured targets, the session summary
 * stored at logout and queued as a `session_summary` notification, the shift report's CSV from the
 * real data folder, and the idle logout with a short idle time: signed out with nothing in hand, warned
 * first with work in hand, and the lit line kept for the next operator (docs/station.md#idle-logout).
 */
import { rmSync } from "node:fs";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Agent, createAgent } from "../../../src/app/agent.js";
import type { ScreenState } from "../../../src/station/screen/state/types.js";
import {
  passwordGrant,
  startTestAgent,
  type TestAgent,
  TOKEN_PATH,
  tempDir,
  testConfig,
} from "../../support/agent.js";
import { runCli } from "../../support/cli.js";
import { until } from "../../support/deadline.js";
import { NotificationReader, ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";

const MIN = 60_000;
const ACTIONS = "/station/seats/front/screen/actions";

const screenOf = async (t: TestAgent) =>
  (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
const act = (t: TestAgent, body: Record<string, unknown>) => ok(t.call("POST", ACTIONS, body));

async function pickWork(t: TestAgent, lines: Array<[string, string, number]>) {
  for (const sku of new Set(lines.map(([, s]) => s))) {
    await seedItem(t, sku);
    await setStock(t, `M1-A${sku.charCodeAt(0) - 64}`, "M1", sku, 20);
  }
  await ok(
    t.call(
      "POST",
      SR,
      pickBody(
        "P1",
        lines.map(([id, sku, q]) => pickLine(id, sku, q)),
      ),
    ),
  );
  await ok(
    t.call("POST", "/station/racks", {
      msu: "M1",
      locations: [...new Set(lines.map(([, s]) => `M1-A${s.charCodeAt(0) - 64}`))],
    }),
  );
}

describe("productivity and the session summary", () => {
  let t: TestAgent;
  let start: number;
  const reader = () => new NotificationReader(t);

  beforeAll(async () => {
    t = await startTestAgent({
      station: { idleLogoutMs: 0, productivity: { linesPerHour: 30, unitsPerHour: 40 } },
    });
    await pickWork(t, [
      ["P1-1", "A", 3],
      ["P1-2", "B", 2],
    ]);
  });
  afterAll(async () => t.close());

  it("shows no figure in the session's first minute, and none with nobody logged in", async () => {
    expect((await screenOf(t)).productivity).toBeNull();
    start = t.clock.now;
    await act(t, { type: "login", user: "ann" });
    t.clock.now += 30_000;
    expect((await screenOf(t)).productivity).toEqual({
      recent: null,
      session: null,
      targets: { linesPerHour: 30, unitsPerHour: 40 },
      standing: { lines: null, units: null },
    });
  });

  it("counts the lines and units picked, an hour, against the targets", async () => {
    await act(t, { type: "scan", barcode: "BC-A" });
    await act(t, { type: "confirm" });
    // a gap of two minutes: idle time
    t.clock.now += 2 * MIN;
    await act(t, { type: "scan", barcode: "BC-B" });
    await act(t, { type: "problem", kind: "damaged", quantity: 1, confirmed: true });
    t.clock.now = start + 5 * MIN;
    // 2 lines and 4 units (3 of A, 1 of B) in 5 minutes: 24 lines and 48 units an hour
    expect((await screenOf(t)).productivity).toEqual({
      recent: { linesPerHour: 24, unitsPerHour: 48 },
      session: { linesPerHour: 24, unitsPerHour: 48 },
      targets: { linesPerHour: 30, unitsPerHour: 40 },
      standing: { lines: "below", units: "above" },
    });
  });

  it("stores the session at logout and queues its session_summary notification", async () => {
    const notes = reader();
    await notes.catchUp();
    t.clock.now = start + 6 * MIN;
    await act(t, { type: "logout" });
    const sent = (await notes.next()).filter((n) => n.notification_type === "session_summary");
    expect(sent.map((n) => n.notification_data)).toEqual([
      {
        seat: "front",
        operator: "ann",
        started_at: new Date(start).toISOString(),
        ended_at: new Date(start + 6 * MIN).toISOString(),
        ended_by: "logout",
        lines: 2,
        units: 4,
        exceptions: { physically_damaged: 1 },
        // the two minutes between the lines, and the 3.5 minutes from the last input to the logout
        idle_minutes: 5.5,
      },
    ]);
    expect((await screenOf(t)).productivity).toBeNull();
    expect(t.agent.services.shift.sessions(0, Number.MAX_SAFE_INTEGER)).toHaveLength(1);
  });

  it("a session logged in and out over the station API is summed up too", async () => {
    const at = t.clock.now;
    await ok(t.call("POST", "/station/seats/back/login", { user: "eve" }));
    t.clock.now += 30_000;
    await ok(t.call("POST", "/station/seats/back/logout"));
    const eve = t.agent.services.shift.sessions(at, at + MIN).filter((s) => s.operator === "eve");
    expect(eve).toEqual([
      {
        seat: "back",
        operator: "eve",
        startedAt: at,
        endedAt: at + 30_000,
        endedBy: "logout",
        lines: 0,
        units: 0,
        exceptions: {},
        idleMs: 0,
      },
    ]);
  });

  it("pps-edge report shift writes the sessions of the period as CSV from the data folder", async () => {
    const env = { PPS_EDGE_DATA_DIR: t.dir };
    const from = new Date(start - MIN).toISOString();
    // up to ann's logout: eve's session ended after it
    const to = new Date(start + 6 * MIN + 1).toISOString();
    const res = await runCli(["report", "shift", "--from", from, "--to", to], env);
    expect(res.err).toBe("");
    expect(res.code).toBe(0);
    // what the command printed, with the line feed its output adds: every row ends with CRLF
    expect(`${res.out}\n`.split("\r\n")).toEqual([
      "seat,operator,started_at,ended_at,ended_by,minutes,lines,units,exceptions,idle_minutes,lines_per_hour,units_per_hour",
      `front,ann,${new Date(start).toISOString()},${new Date(start + 6 * MIN).toISOString()},logout,6,2,4,physically_damaged=1,5.5,20,40`,
      "",
    ]);
    // a period the session did not end in: the header alone
    const before = await runCli(["report", "shift", "--to", from], env);
    expect(before.out).toBe(
      "seat,operator,started_at,ended_at,ended_by,minutes,lines,units,exceptions,idle_minutes,lines_per_hour,units_per_hour\r",
    );
  });

  it("refuses a time that is not ISO 8601, and a --to not after --from, as usage errors naming the option", async () => {
    const env = { PPS_EDGE_DATA_DIR: t.dir };
    const bad = await runCli(["report", "shift", "--from", "yesterday"], env);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--from");
    const reversed = await runCli(
      ["report", "shift", "--from", "2026-11-21T12:00:00Z", "--to", "2026-11-21T11:00:00Z"],
      env,
    );
    expect(reversed.code).toBe(2);
    expect(reversed.err).toContain("--to");
    expect(bad.out + reversed.out).toBe("");
  });
});

describe("idle logout", () => {
  let t: TestAgent;
  const summaries = () => t.agent.services.shift.sessions(0, Number.MAX_SAFE_INTEGER);

  beforeAll(async () => {
    t = await startTestAgent({ station: { idleLogoutMs: 1000, idleWarningMs: 2000 } });
    await pickWork(t, [["P1-1", "A", 2]]);
  });
  afterAll(async () => t.close());

  it("signs out an idle operator with nothing in hand, and writes the summary", async () => {
    await act(t, { type: "login", user: "bob" });
    t.clock.now += 1000;
    await until("bob signed out", async () => (await screenOf(t)).operator === null, 5000);
    expect((await screenOf(t)).idle).toEqual({ kind: "signed_out", operator: "bob" });
    expect(summaries().map((s) => [s.operator, s.endedBy])).toEqual([["bob", "idle"]]);
  });

  it("warns an operator with work in hand, an input ends the warning, then signs out and keeps the lit line", async () => {
    t.clock.now += 1000;
    await act(t, { type: "login", user: "carol" });
    expect((await screenOf(t)).idle).toBeNull();
    await act(t, { type: "scan", barcode: "BC-A" });
    t.clock.now += 1000;
    await until("the warning", async () => (await screenOf(t)).idle?.kind === "warning", 5000);
    expect((await screenOf(t)).idle).toMatchObject({ kind: "warning", seconds: 2 });
    // a refused scan is an input too: the warning goes
    const refused = await t.call("POST", ACTIONS, { type: "scan", barcode: "NOT-KNOWN" });
    expect(refused.status).toBe(409);
    expect((await screenOf(t)).idle).toBeNull();
    t.clock.now += 1000;
    await until("the warning again", async () => (await screenOf(t)).idle?.kind === "warning", 5000);
    // a tap that is no engine input (the language) ends it too
    await act(t, { type: "language", lang: "de" });
    expect((await screenOf(t)).idle).toBeNull();
    t.clock.now += 1000;
    await until("the warning a third time", async () => (await screenOf(t)).idle?.kind === "warning", 5000);
    t.clock.now += 2000;
    await until("carol signed out", async () => (await screenOf(t)).operator === null, 5000);
    const after = await screenOf(t);
    expect(after.idle).toEqual({ kind: "signed_out", operator: "carol" });
    expect(after.step).toBe("pick_confirm");
    expect(after.bins.find((b) => b.id === "1")?.light).toMatchObject({ mode: "show", quantity: 2 });
    expect(summaries().map((s) => [s.operator, s.endedBy])).toEqual([
      ["bob", "idle"],
      ["carol", "idle"],
    ]);
  });

  it("the next operator logs in over the kept work and finishes it", async () => {
    await act(t, { type: "login", user: "dave" });
    const s = await screenOf(t);
    expect(s).toMatchObject({ operator: "dave", step: "pick_confirm", idle: null });
    const done = await act(t, { type: "confirm" });
    expect(done).toMatchObject({ result: "done", did: "picked" });
  });
});

describe("idle logout across a restart", () => {
  it("an operator still logged in when the agent starts again is not signed out at once", async () => {
    const dir = tempDir();
    const clock = { now: Date.parse("2026-11-21T10:00:00.000Z") };
    const config = testConfig(dir, { station: { idleLogoutMs: 1000 } });
    const start = async () => {
      const agent = createAgent(config, { log: pino({ level: "silent" }), now: () => clock.now });
      await agent.start(false);
      return agent;
    };
    let agent = await start();
    try {
      agent.services.operations.login("front", "fay");
      await agent.stop();
      clock.now += 10 * MIN;
      agent = await start();
      const user = () => agent.services.repos.station.seat("front")?.userName ?? null;
      // the subject: several turns of the idle timer (every 200 ms here) pass, and fay stays
      await new Promise((r) => setTimeout(r, 1000));
      expect(user()).toBe("fay");
      clock.now += 1000;
      await until("fay signed out", () => user() === null, 5000);
      expect(agent.services.shift.sessions(0, Number.MAX_SAFE_INTEGER)).toMatchObject([
        { operator: "fay", endedBy: "idle", startedAt: clock.now - 10 * MIN - 1000 },
      ]);
    } finally {
      await agent.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("productivity across a restart", () => {
  it("an agent started again mid-session goes on from the session's tally: the same figures, then more", async () => {
    const overrides = { station: { idleLogoutMs: 0, productivity: { linesPerHour: 30, unitsPerHour: 40 } } };
    const t = await startTestAgent(overrides);
    let again: Agent | undefined;
    try {
      await pickWork(t, [
        ["P1-1", "A", 3],
        ["P1-2", "B", 2],
      ]);
      const start = t.clock.now;
      await act(t, { type: "login", user: "ann" });
      await act(t, { type: "scan", barcode: "BC-A" });
      await act(t, { type: "confirm" });
      await until(
        "the tally kept",
        () => t.agent.services.repos.shift.openSession("front")?.tally.lines === 1,
      );
      t.clock.now = start + 5 * MIN;
      const before = (await screenOf(t)).productivity;
      // 1 line and 3 units in 5 minutes
      expect(before?.session).toEqual({ linesPerHour: 12, unitsPerHour: 36 });
      await t.agent.stop();

      again = createAgent(testConfig(t.dir, overrides), {
        log: pino({ level: "silent" }),
        now: () => t.clock.now,
      });
      await again.start(false);
      const token = (
        (await (await again.app.request(TOKEN_PATH, passwordGrant())).json()) as { access_token: string }
      ).access_token;
      const call = (method: string, path: string, body?: unknown) =>
        (again as Agent).app.request(path, {
          method,
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      const screen = async () =>
        (await ok(call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
      expect((await screen()).productivity).toEqual(before);

      // work after the restart adds to the same session
      await ok(call("POST", "/station/racks", { msu: "M1", locations: ["M1-A1", "M1-A2"] }));
      await ok(call("POST", ACTIONS, { type: "scan", barcode: "BC-B" }));
      await ok(call("POST", ACTIONS, { type: "confirm" }));
      t.clock.now = start + 10 * MIN;
      // 2 lines and 5 units in 10 minutes
      expect((await screen()).productivity?.session).toEqual({ linesPerHour: 12, unitsPerHour: 30 });
      await ok(call("POST", ACTIONS, { type: "logout" }));
      expect(again.services.shift.sessions(0, Number.MAX_SAFE_INTEGER)).toMatchObject([
        { operator: "ann", startedAt: start, lines: 2, units: 5 },
      ]);
    } finally {
      await again?.stop();
      rmSync(t.dir, { recursive: true, force: true });
    }
  });
});
