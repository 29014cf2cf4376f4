import { join } from "node:path";
import Database from "better-sqlite3";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/db/open.js";
import { createOutboxRepo } from "../../../src/db/outbox.repo.js";
import { type AppError, isAppError } from "../../../src/domain/errors.js";
import { EventBus } from "../../../src/events.js";
import { type CommitTiming, createUnitOfWork } from "../../../src/services/unit-of-work/unit-of-work.js";
import { tempDir } from "../../support/agent.js";

function setup(elapsedMs?: () => number) {
  const file = join(tempDir(), "uow.db");
  const handle = openDatabase(file, { busyTimeoutMs: 20 });
  const outbox = createOutboxRepo(handle.sqlite, { site: "dc1", ppsId: "7" });
  const bus = new EventBus();
  const events: string[] = [];
  bus.on("test", "outbox", (e) => events.push(`outbox ${e.lastSeq}`));
  bus.on("test", "station", () => events.push("station"));
  const commits: CommitTiming[] = [];
  const uow = createUnitOfWork({
    sqlite: handle.sqlite,
    outbox,
    bus,
    now: () => 1000,
    log: pino({ level: "silent" }),
    outboxLimit: 1000,
    onCommit: (t) => commits.push(t),
    ...(elapsedMs ? { elapsedMs } : {}),
  });
  handle.sqlite.exec("CREATE TABLE things (n INTEGER, blob BLOB)");
  const count = () => (handle.sqlite.prepare("SELECT count(*) AS n FROM things").get() as { n: number }).n;
  const insert = (n: number) => handle.sqlite.prepare("INSERT INTO things (n) VALUES (?)").run(n);
  return { file, handle, outbox, uow, events, commits, count, insert };
}

function codeOf(e: unknown): string {
  return isAppError(e) ? e.code : `not an AppError: ${String(e)}`;
}

describe("unit of work", () => {
  it("a unit of work opened inside another joins it: its events wait for the outer commit", () => {
    const { uow, events, count, insert, outbox } = setup();
    uow.run((t) => {
      insert(1);
      uow.run((inner) => {
        insert(2);
        inner.notify("order_information", {});
        inner.announce("station", {});
      });
      expect(events).toEqual([]);
      t.notify("bin_complete", {});
    });
    expect(count()).toBe(2);
    expect(outbox.lastSeq()).toBe(2);
    expect(events).toEqual(["outbox 2", "station"]);
  });

  it("a failed inner unit of work rolls back alone; a failed outer one takes the inner with it", () => {
    const { uow, events, count, insert } = setup();
    uow.run(() => {
      insert(1);
      expect(() =>
        uow.run((inner) => {
          insert(2);
          inner.announce("station", {});
          throw new Error("inner");
        }),
      ).toThrow("inner");
    });
    expect(count()).toBe(1);
    expect(events).toEqual([]);
    expect(() =>
      uow.run(() => {
        uow.run((inner) => {
          insert(3);
          inner.announce("station", {});
        });
        throw new Error("outer");
      }),
    ).toThrow("outer");
    expect(count()).toBe(1);
    expect(events).toEqual([]);
  });

  it("reports each commit's timing, with the changes a group commit carried", async () => {
    const { uow, commits, insert } = setup();
    uow.run(() => insert(1));
    await Promise.all([1, 2, 3].map((n) => uow.runAsync(() => insert(n))));
    expect(commits.map((c) => c.changes)).toEqual([1, 3]);
    for (const c of commits) {
      expect(c.commitSeconds).toBeGreaterThanOrEqual(0);
      expect(c.transactionSeconds).toBeGreaterThanOrEqual(c.commitSeconds);
    }
  });

  it("changes that keep arriving turn after turn (HTTP handlers started a few per turn) share one commit", async () => {
    // the collecting time held still: a machine that stalls between two turns does not count here
    const { uow, commits, insert, count } = setup(() => 0);
    const turns = [
      [1, 2],
      [3, 4],
      [5, 6],
    ];
    const done: Promise<unknown>[] = [];
    await new Promise<void>((all) => {
      let i = 0;
      const nextTurn = () => {
        for (const n of turns[i++] ?? []) done.push(uow.runAsync(() => insert(n)));
        if (i < turns.length) setImmediate(nextTurn);
        else all();
      };
      nextTurn();
    });
    await Promise.all(done);
    expect(count()).toBe(6);
    expect(commits).toHaveLength(1);
    expect(commits.reduce((n, c) => n + c.changes, 0)).toBe(6);
  });

  it("a full disk is refused with 503 storage_full and nothing is half-written", async () => {
    const { handle, uow, count, insert } = setup();
    const pages = (handle.sqlite.pragma("page_count", { simple: true }) as number) + 1;
    handle.sqlite.pragma(`max_page_count = ${pages}`);
    const big = handle.sqlite.prepare("INSERT INTO things (n, blob) VALUES (?, zeroblob(1000000))");
    let error: unknown;
    try {
      uow.run(() => {
        insert(1);
        big.run(2);
      });
    } catch (e) {
      error = e;
    }
    expect(codeOf(error)).toBe("storage_full");
    expect((error as AppError).kind).toBe("unavailable");
    expect(count()).toBe(0);
    const late = await uow.runAsync(() => big.run(3)).catch((e: unknown) => e);
    expect(codeOf(late)).toBe("storage_full");
    expect(count()).toBe(0);
  });

  it("a database locked by another process is retried, then refused with 503 storage_error", () => {
    const { file, uow, count, insert } = setup();
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    let error: unknown;
    try {
      uow.run(() => insert(1));
    } catch (e) {
      error = e;
    }
    other.exec("ROLLBACK");
    other.close();
    expect(codeOf(error)).toBe("storage_error");
    expect(count()).toBe(0);
    uow.run(() => insert(2));
    expect(count()).toBe(1);
  });

  it("a group commit the database refused to begin is tried again on a later turn", async () => {
    const { file, uow, count, insert } = setup();
    const other = new Database(file);
    other.exec("BEGIN IMMEDIATE");
    const done = uow.runAsync(() => insert(1));
    // the lock is let go after the first refused BEGIN, as another process would
    setImmediate(() => {
      other.exec("ROLLBACK");
      other.close();
    });
    await done;
    expect(count()).toBe(1);
  });
});
