/**
 * The security event log's recorder and retention (docs/security.md#security-event-log), on a real SQLite
 * file: every kind is stored with its channel, user name, address and detail; secrets never are; a
 * failing write loses the event, not the action, and is logged once; retention prunes by age and count.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../../src/db/open.js";
import { createSecurityEventsRepo } from "../../../src/db/security-events.repo.js";
import { roleRefusedEvent, SECURITY_EVENT_KINDS } from "../../../src/domain/security-event.js";
import { createSecurityLog, REFUSAL_REPEAT_MS } from "../../../src/services/auth/security-log.js";
import { tempDir } from "../../support/agent.js";

const T0 = Date.parse("2026-11-21T10:00:00.000Z");
const DAY = 24 * 3600_000;

let dir: string;
let handle: DatabaseHandle;
const clock = { now: T0 };

function open(retention?: { days: number; maxRows: number }, log?: object) {
  dir = tempDir();
  handle = openDatabase(join(dir, "pps-edge.db"));
  const repo = createSecurityEventsRepo(handle.sqlite);
  return { repo, log: createSecurityLog({ repo, now: () => clock.now, retention, log: log as never }) };
}

afterEach(() => {
  handle?.close();
  rmSync(dir, { recursive: true, force: true });
  clock.now = T0;
});

describe("security event recorder", () => {
  it("stores every kind with its channel, user name, address and detail", () => {
    const { log } = open();
    for (const kind of SECURITY_EVENT_KINDS) {
      log.record({ kind, channel: "http", username: "alice", address: "10.0.0.9", detail: { n: 1 } });
      clock.now += 1000;
    }
    const events = log.list({ limit: 100 });
    expect(events.map((e) => e.kind)).toEqual([...SECURITY_EVENT_KINDS].reverse());
    expect(events.at(-1)).toEqual({
      id: 1,
      at: T0,
      kind: "login_succeeded",
      channel: "http",
      username: "alice",
      address: "10.0.0.9",
      detail: { n: 1 },
    });
  });

  it("never stores a fact named like a secret, and bounds long texts", () => {
    const { log } = open();
    log.record({
      kind: "login_failed",
      channel: "mqtt",
      username: "x".repeat(1000),
      detail: {
        reason: "wrong_password",
        password: "hunter2-hunter2",
        access_token: "abc",
        clientSecret: "s",
      },
    });
    const [e] = log.list({ limit: 1 });
    expect(e?.detail).toEqual({ reason: "wrong_password" });
    expect(e?.username).toHaveLength(128);
    expect(e?.address).toBeNull();
  });

  it("filters by time, kind and user name, newest first, in pages below an id", () => {
    const { log } = open();
    for (let i = 0; i < 10; i++) {
      log.record({
        kind: i % 2 ? "login_failed" : "login_succeeded",
        channel: "http",
        username: `u${i % 3}`,
      });
      clock.now += 60_000;
    }
    expect(log.list({ limit: 3 }).map((e) => e.id)).toEqual([10, 9, 8]);
    expect(log.list({ limit: 3, beforeId: 8 }).map((e) => e.id)).toEqual([7, 6, 5]);
    expect(log.list({ limit: 100, kind: "login_failed" }).map((e) => e.id)).toEqual([10, 8, 6, 4, 2]);
    expect(log.list({ limit: 100, username: "u0" }).map((e) => e.id)).toEqual([10, 7, 4, 1]);
    const since = T0 + 2 * 60_000;
    const until = T0 + 5 * 60_000;
    expect(log.list({ limit: 100, since, until }).map((e) => e.id)).toEqual([5, 4, 3]);
  });

  it("loses the event, not the action, when the write fails; logs once per episode", () => {
    const errors: unknown[] = [];
    const infos: unknown[] = [];
    const log = { error: (...a: unknown[]) => errors.push(a), info: (...a: unknown[]) => infos.push(a) };
    let full = true;
    const repo = {
      insert: () => {
        if (full) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
      },
      list: () => [],
      prune: () => 0,
    };
    const recorder = createSecurityLog({ repo, now: () => T0, log: log as never });
    for (let i = 0; i < 5; i++)
      expect(() => recorder.record({ kind: "login_failed", channel: "http" })).not.toThrow();
    expect(errors).toHaveLength(1);
    full = false;
    recorder.record({ kind: "login_failed", channel: "http" });
    expect(infos).toHaveLength(1);
    full = true;
    recorder.record({ kind: "login_failed", channel: "http" });
    expect(errors).toHaveLength(2);
  });
});

describe("role refusals", () => {
  it("records a 403 with the caller's role and the route's, once per caller and target in 10 minutes", () => {
    const { log } = open();
    const refusal = (target: string) =>
      roleRefusedEvent({
        channel: "http",
        username: "central",
        role: "integration",
        needed: ["operator", "admin"],
        target,
        address: "10.0.0.5",
      });
    for (let i = 0; i < 50; i++) log.refused(refusal("PUT /station/mode"));
    log.refused(refusal("POST /station/seats/front/login"));
    clock.now += REFUSAL_REPEAT_MS;
    log.refused(refusal("PUT /station/mode"));
    const rows = log.list({ limit: 100, kind: "role_refused" });
    expect(rows.map((e) => e.detail?.target)).toEqual([
      "PUT /station/mode",
      "POST /station/seats/front/login",
      "PUT /station/mode",
    ]);
    expect(rows[0]).toMatchObject({
      username: "central",
      address: "10.0.0.5",
      detail: { role: "integration", needed: "operator,admin" },
    });
  });
});

describe("security event retention", () => {
  it("prunes events older than the retention days", () => {
    const { log } = open({ days: 90, maxRows: 1000 });
    log.record({ kind: "user_added", channel: "cli", username: "old" });
    clock.now += 60 * DAY;
    log.record({ kind: "user_added", channel: "cli", username: "newer" });
    clock.now += 31 * DAY;
    expect(log.prune()).toBe(1);
    expect(log.list({ limit: 10 }).map((e) => e.username)).toEqual(["newer"]);
  });

  it("keeps at most the newest maxRows events", () => {
    const { log } = open({ days: 90, maxRows: 3 });
    for (let i = 1; i <= 5; i++) log.record({ kind: "login_succeeded", channel: "http", username: `u${i}` });
    expect(log.prune()).toBe(2);
    expect(log.list({ limit: 10 }).map((e) => e.username)).toEqual(["u5", "u4", "u3"]);
    expect(log.prune()).toBe(0);
  });
});
