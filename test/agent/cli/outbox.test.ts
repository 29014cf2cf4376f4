/**
 * `pps-edge outbox replay` with the agent stopped: done by the command itself under the data folder's
 * lock; the rows are back in the queue under their own seq and the delivery watermark below them, so the
 * next start sends them first. Bad SEQ arguments are usage errors; an unknown seq changes nothing.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DatabaseHandle, DB_FILE, openDatabase } from "../../../src/db/open.js";
import { createOutboxRepo, type OutboxRepo } from "../../../src/db/outbox.repo.js";
import { tempDir } from "../../support/agent.js";
import { runCli } from "../../support/cli.js";

let dir: string;
let handle: DatabaseHandle;
let outbox: OutboxRepo;
const env = () => ({ PPS_EDGE_DATA_DIR: dir });

beforeEach(() => {
  dir = tempDir();
  handle = openDatabase(join(dir, DB_FILE));
  outbox = createOutboxRepo(handle.sqlite, { site: "dc1", ppsId: "1" });
  // 1 to 3 committed; 2 refused for good; the publisher's watermark past all three
  handle.sqlite.transaction(() => {
    for (let n = 1; n <= 3; n++) outbox.append("order_information", { n }, 1000 + n);
    outbox.moveAside(2, "too_large", null, 5000);
    outbox.setCursor(3);
  })();
});
afterEach(() => {
  handle.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("pps-edge outbox replay, the agent stopped", () => {
  it("puts the dead letter back under its own seq, ahead of what waits", async () => {
    outbox.append("order_information", { n: 4 }, 1004); // waiting
    const listed = await runCli(["outbox"], env());
    expect(listed.out).toMatch(/^2\torder_information\tdc1\.1\.2\ttoo_large\t1970-01-01T00:00:05\.000Z$/);
    const res = await runCli(["outbox", "replay", "2"], env());
    expect(res.err).toBe("");
    expect(res.code).toBe(0);
    expect(res.out).toBe(
      "replayed 1 dead letters (seq 2): the agent is not running; it sends them when it next connects",
    );
    expect(outbox.deadCount()).toBe(0);
    expect(outbox.cursor()).toBe(1);
    // what the next connection sends, in order: the replayed one, then the one that waited
    expect(outbox.pending(outbox.cursor(), 10).map((r) => [r.seq, r.notificationId])).toEqual([
      [2, "dc1.1.2"],
      [4, "dc1.1.4"],
    ]);
    expect(outbox.undeliveredCount()).toBe(2);
    expect((await runCli(["outbox", "replay"], env())).out).toBe("no dead letters: nothing to replay");
  });

  it("refuses a seq that is not a dead letter, and changes nothing", async () => {
    for (const [seq, why] of [
      ["3", "3 (delivered or waiting, not a dead letter)"],
      ["77", "77 (no such notification)"],
    ]) {
      const res = await runCli(["outbox", "replay", "2", seq as string], env());
      expect(res.code).toBe(1);
      expect(res.err).toContain(why);
      expect(outbox.deadSeqs()).toEqual([2]);
      expect(outbox.cursor()).toBe(3);
    }
  });

  it.each([["x"], ["0"], ["1.5"]])("refuses SEQ %s as a usage error", async (seq) => {
    const res = await runCli(["outbox", "replay", seq], env());
    expect(res.code).toBe(2);
    expect(res.err).toContain(`SEQ '${seq}'`);
    expect(outbox.deadSeqs()).toEqual([2]);
  });
});
