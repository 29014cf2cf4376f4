/**
 * A replay page (docs/mqtt.md#replaying-notifications): envelopes after a seq, byte for byte, paged by
 * count and by bytes, with what was pruned and what is too large for one answer said, never stuck.
 */
import { join } from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/db/open.js";
import { createOutboxRepo } from "../../../src/db/outbox.repo.js";
import { PartAssembler } from "../../../src/domain/notification-parts.js";
import { EventBus } from "../../../src/events.js";
import { replayPage } from "../../../src/services/notifications/notification-replay.js";
import { createUnitOfWork } from "../../../src/services/unit-of-work/unit-of-work.js";
import { tempDir } from "../../support/agent.js";

function setup() {
  const handle = openDatabase(join(tempDir(), "replay.db"));
  const outbox = createOutboxRepo(handle.sqlite, { site: "dc1", ppsId: "7" });
  const tx = createUnitOfWork({
    sqlite: handle.sqlite,
    outbox,
    bus: new EventBus(),
    now: () => 1000,
    log: pino({ level: "silent" }),
    outboxLimit: 100_000,
  });
  const add = (n: number, data: (i: number) => unknown = (i) => ({ i, text: 'quote " é ✓' })) => {
    for (let i = 0; i < n; i++) tx.run((t) => t.notify("order_information", data(i)));
  };
  return { handle, outbox, add };
}

const ROOMY = 1_000_000;

describe("replay pages", () => {
  it("the envelopes after `after`, in seq order, as committed; next_after, more and last_seq", () => {
    const { outbox, add } = setup();
    add(10);
    const page = replayPage(outbox, { after: 3, limit: 4, room: ROOMY });
    expect(page.notifications.map((n) => n.seq)).toEqual([4, 5, 6, 7]);
    expect(page.notifications.map((n) => n.payload)).toEqual(outbox.after(3, 4).map((r) => r.envelope));
    expect(page).toMatchObject({ next_after: 7, more: true, last_seq: 10, first_available_seq: 1 });
    expect(page).not.toHaveProperty("skipped");
    const last = replayPage(outbox, { after: 7, limit: 4, room: ROOMY });
    expect(last.notifications.map((n) => n.seq)).toEqual([8, 9, 10]);
    expect(last).toMatchObject({ next_after: 10, more: false });
    // exactly `limit` left: no more
    expect(replayPage(outbox, { after: 6, limit: 4, room: ROOMY }).more).toBe(false);
  });

  it("nothing after the newest: an empty page, next_after is after, no more", () => {
    const { outbox, add } = setup();
    expect(replayPage(outbox, { after: 0, limit: 100, room: ROOMY })).toEqual({
      notifications: [],
      next_after: 0,
      more: false,
      last_seq: 0,
      first_available_seq: null,
    });
    add(2);
    expect(replayPage(outbox, { after: 2, limit: 100, room: ROOMY })).toMatchObject({
      notifications: [],
      next_after: 2,
      more: false,
      last_seq: 2,
    });
  });

  it("pruned notifications: first_available_seq says where the kept ones begin", () => {
    const { handle, outbox, add } = setup();
    add(10);
    handle.sqlite.exec("DELETE FROM outbox WHERE seq <= 6");
    const page = replayPage(outbox, { after: 2, limit: 100, room: ROOMY });
    expect(page.notifications.map((n) => n.seq)).toEqual([7, 8, 9, 10]);
    expect(page).toMatchObject({ first_available_seq: 7, next_after: 10, more: false, last_seq: 10 });
    // all pruned: nothing kept, the newest seq still known, and no endless "more"
    handle.sqlite.exec("DELETE FROM outbox");
    expect(replayPage(outbox, { after: 2, limit: 100, room: ROOMY })).toEqual({
      notifications: [],
      next_after: 2,
      more: false,
      last_seq: 10,
      first_available_seq: null,
    });
  });

  it("a page never takes more bytes than its room, and paging by bytes reaches every notification", () => {
    const { outbox, add } = setup();
    add(60, (i) => ({ i, pad: 'x"\\\n'.repeat(20 + ((i * 37) % 200)), u: "ü✓😀" }));
    for (const room of [3_500, 8_000, 20_000]) {
      const seen: number[] = [];
      let after = 0;
      for (let pages = 0; ; pages++) {
        expect(pages).toBeLessThan(100);
        const page = replayPage(outbox, { after, limit: 500, room });
        expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThanOrEqual(room);
        expect(page.skipped).toBeUndefined();
        seen.push(...page.notifications.map((n) => n.seq));
        after = page.next_after;
        if (!page.more) break;
        expect(page.notifications.length).toBeGreaterThan(0);
      }
      expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    }
  });

  it("a notification too large for any answer is skipped with its size, so paging goes on", () => {
    const { outbox, add } = setup();
    add(5, (i) => ({ i, pad: "y".repeat(i === 2 ? 5_000 : 10) }));
    const room = 2_000;
    const first = replayPage(outbox, { after: 0, limit: 10, room });
    expect(first.notifications.map((n) => n.seq)).toEqual([1, 2, 4, 5]);
    expect(first.skipped).toEqual([
      { seq: 3, bytes: Buffer.byteLength(outbox.after(2, 1)[0]?.envelope ?? "") },
    ]);
    expect(first).toMatchObject({ next_after: 5, more: false });
    expect(Buffer.byteLength(JSON.stringify(first))).toBeLessThanOrEqual(room);
    // starting at the large one: skipped, not an empty page that asks for itself again
    const at = replayPage(outbox, { after: 2, limit: 1, room });
    expect(at).toMatchObject({ notifications: [], skipped: [{ seq: 3 }], next_after: 3, more: true });
  });

  it("asked with `part`, a notification too large for any answer comes in parts that make it byte for byte", () => {
    const { outbox, add } = setup();
    // escapes and multi-byte characters: the parts cut bytes, the answer escapes the part's quotes
    add(5, (i) => ({ i, pad: (i === 2 ? 'z"\\ü😀' : "y").repeat(i === 2 ? 3_000 : 10) }));
    const large = outbox.after(2, 1)[0]?.envelope as string;
    const room = 2_000;
    // a page holding others ends before it, nothing skipped
    const first = replayPage(outbox, { after: 0, limit: 10, room, part: 0 });
    expect(first.notifications.map((n) => n.seq)).toEqual([1, 2]);
    expect(first).toMatchObject({ next_after: 2, more: true });
    expect(first).not.toHaveProperty("skipped");
    expect(first).not.toHaveProperty("part");
    const assembler = new PartAssembler();
    let index = 0;
    let envelope: Buffer | undefined;
    for (;;) {
      const page = replayPage(outbox, { after: 2, limit: 10, room, part: index });
      expect(Buffer.byteLength(JSON.stringify(page))).toBeLessThanOrEqual(room);
      expect(page.notifications).toEqual([]);
      expect(page.part).toMatchObject({ seq: 3, index });
      const count = page.part?.count as number;
      expect(count).toBeGreaterThan(2);
      const outcome = assembler.offer(page.part?.payload as string);
      if (index < count - 1) {
        expect(page).toMatchObject({ next_after: 2, more: true });
        expect(outcome.kind).toBe("pending");
        index++;
        continue;
      }
      expect(page).toMatchObject({ next_after: 3, more: true });
      expect(outcome.kind).toBe("complete");
      if (outcome.kind === "complete") envelope = outcome.envelope;
      break;
    }
    expect(envelope?.toString("utf8")).toBe(large);
    // after it, paging goes on as before
    const rest = replayPage(outbox, { after: 3, limit: 10, room, part: 0 });
    expect(rest.notifications.map((n) => n.seq)).toEqual([4, 5]);
    expect(rest).toMatchObject({ next_after: 5, more: false });
  });

  it("a part beyond the last is refused naming `part`; without `part` the large one is skipped as before", () => {
    const { outbox, add } = setup();
    add(2, (i) => ({ i, pad: "w".repeat(i === 0 ? 5_000 : 10) }));
    const room = 2_000;
    const count = replayPage(outbox, { after: 0, limit: 1, room, part: 0 }).part?.count as number;
    expect(() => replayPage(outbox, { after: 0, limit: 1, room, part: count })).toThrow(
      expect.objectContaining({
        code: "validation_failed",
        errors: [expect.objectContaining({ path: "part" })],
      }),
    );
    expect(replayPage(outbox, { after: 0, limit: 1, room })).toMatchObject({ skipped: [{ seq: 1 }] });
    // cut for `partRoom`, not for what a longer transaction leaves: every page cuts alike
    const cut = (r: number) =>
      replayPage(outbox, { after: 0, limit: 1, room: r, part: 1, partRoom: 1_900 }).part;
    expect(cut(1_990)).toEqual(cut(2_000));
    expect(cut(2_000)?.payload).not.toEqual(
      replayPage(outbox, { after: 0, limit: 1, room, part: 1 }).part?.payload,
    );
    // a notification that fits is returned whole whatever part is asked
    expect(replayPage(outbox, { after: 1, limit: 1, room, part: 3 }).notifications.map((n) => n.seq)).toEqual(
      [2],
    );
  });
});
