/**
 * The session summary commits in its logout's transaction (docs/mqtt.md#session-summaries), on the real
 * SQLite file: a second connection to the file makes one of the two writes fail, as a kill between them
 * would leave it, and the other must not stay either. Every path that ends a session: a tap at the seat,
 * the station API, central's sign-out.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_FILE } from "../../../src/db/open.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { ok } from "../../support/station.js";

const ACTIONS = "/station/seats/front/screen/actions";

describe("the session summary in its logout's transaction", () => {
  let t: TestAgent;
  let file: Database.Database;
  const operator = () =>
    (file.prepare("SELECT user_name AS u FROM seats WHERE seat = 'front'").get() as { u: string | null }).u;
  const summaries = () =>
    file.prepare("SELECT operator, ended_by AS endedBy FROM seat_sessions ORDER BY id").all() as Array<{
      operator: string;
      endedBy: string;
    }>;
  const summaryNotes = () =>
    (file.prepare("SELECT count(*) AS n FROM outbox WHERE type = ?").get("session_summary") as { n: number })
      .n;
  const refuseSummaries = () =>
    file.exec(
      "CREATE TRIGGER no_summary BEFORE INSERT ON seat_sessions BEGIN SELECT RAISE(ABORT, 'disk gone'); END",
    );
  const refuseLogouts = () =>
    file.exec(
      `CREATE TRIGGER no_logout BEFORE UPDATE OF user_name ON seats WHEN NEW.user_name IS NULL
       BEGIN SELECT RAISE(ABORT, 'disk gone'); END`,
    );

  // a tap is a scan at the seat: the same badge again at once would be a repeat (station.scanDebounceMs)
  const tap = (body: Record<string, unknown>) => {
    t.clock.now += 10_000;
    return t.call("POST", ACTIONS, body);
  };

  beforeAll(async () => {
    t = await startTestAgent({ station: { idleLogoutMs: 0 } });
    file = new Database(join(t.dir, DB_FILE));
    file.pragma("busy_timeout = 5000");
  });
  afterAll(async () => {
    file.close();
    await t.close();
  });

  it("a logout whose summary cannot be written does not commit: the operator stays logged in", async () => {
    await ok(tap({ type: "login", user: "ann" }));
    refuseSummaries();
    expect((await tap({ type: "logout" })).ok).toBe(false);
    const api = await t.call("POST", "/station/seats/front/logout");
    expect(api.ok).toBe(false);
    expect(() => t.agent.services.seatControl.signOut("front")).toThrow();
    expect(operator()).toBe("ann");
    expect(summaries()).toEqual([]);
    expect(summaryNotes()).toBe(0);
    file.exec("DROP TRIGGER no_summary");
  });

  it("a summary whose logout cannot be written is not kept either", async () => {
    refuseLogouts();
    expect((await tap({ type: "logout" })).ok).toBe(false);
    expect(() => t.agent.services.seatControl.signOut("front")).toThrow();
    expect(operator()).toBe("ann");
    expect(summaries()).toEqual([]);
    expect(summaryNotes()).toBe(0);
    file.exec("DROP TRIGGER no_logout");
  });

  it("once both can be written, the logout and its one summary commit together", async () => {
    await ok(tap({ type: "logout" }));
    expect(operator()).toBeNull();
    expect(summaries()).toEqual([{ operator: "ann", endedBy: "logout" }]);
    expect(summaryNotes()).toBe(1);
    // central's sign-out and the station API sum up their sessions the same way, once each
    await ok(tap({ type: "login", user: "bob" }));
    t.agent.services.seatControl.signOut("front");
    await ok(t.call("POST", "/station/seats/front/login", { user: "cat" }));
    await ok(t.call("POST", "/station/seats/front/logout"));
    expect(summaries().map((s) => s.operator)).toEqual(["ann", "bob", "cat"]);
    expect(summaryNotes()).toBe(3);
  });
});
