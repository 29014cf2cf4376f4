import { describe, expect, it } from "vitest";
import { type Notification, StationStream } from "../src/station-stream.js";

const n = (seq: number): Notification => ({ seq, payload: `p${seq}` });
const seqs = (run: Notification[]) => run.map((x) => x.seq);
const opts = { maxHeld: 3, gapGraceMs: 500, markGraceMs: 3000 };

describe("a station's stream", () => {
  it("delivers in seq order, holding early ones until the gap before them is filled", () => {
    const s = new StationStream(0, opts);
    expect(seqs(s.offer(n(1), 0))).toEqual([1]);
    expect(seqs(s.offer(n(3), 0))).toEqual([]);
    expect(seqs(s.offer(n(4), 0))).toEqual([]);
    expect(s.heldCount).toBe(2);
    expect(seqs(s.offer(n(2), 0))).toEqual([2, 3, 4]);
    expect(s.delivered).toBe(4);
    expect(s.heldCount).toBe(0);
  });

  it("drops what was delivered or is held already, and counts it", () => {
    const s = new StationStream(5, opts);
    expect(s.offer(n(5), 0)).toEqual([]);
    expect(s.offer(n(2), 0)).toEqual([]);
    s.offer(n(8), 0);
    expect(s.offer(n(8), 0)).toEqual([]);
    expect(s.counts.duplicates).toBe(3);
    expect(seqs(s.offer(n(6), 0))).toEqual([6]);
  });

  it("holds at most maxHeld early ones; the rest are left to the replay", () => {
    const s = new StationStream(0, opts);
    for (const seq of [3, 4, 5, 6, 7]) s.offer(n(seq), 0);
    expect(s.heldCount).toBe(3);
    expect(s.counts.overflow).toBe(2);
    expect(seqs(s.offer(n(1), 0))).toEqual([1]);
    expect(seqs(s.offer(n(2), 0))).toEqual([2, 3, 4, 5]);
    expect(s.repairDue(0)).toBeNull();
    // 6 and 7 are still missing: the mark says so
    s.markSeen(7, 10);
    expect(s.repairDue(3009)).toBeNull();
    expect(s.repairDue(3010)).toBe(5);
  });

  it("a seq jump is due for repair after the grace, from the delivered seq to the hole's end", () => {
    const s = new StationStream(10, opts);
    s.offer(n(14), 1000);
    s.offer(n(15), 1000);
    s.markSeen(40, 1000);
    expect(s.repairTarget).toBe(13);
    expect(s.repairDue(1499)).toBeNull();
    expect(s.repairDue(1500)).toBe(10);
    s.repairFailed(1600);
    expect(s.repairDue(2000)).toBeNull();
    expect(s.repairDue(2100)).toBe(10);
  });

  it("a mark ahead with no progress is a gap at the end of a burst; progress restarts the grace", () => {
    const s = new StationStream(0, opts);
    s.markSeen(3, 0);
    s.offer(n(1), 2000);
    expect(s.repairTarget).toBe(3);
    expect(s.repairDue(4000)).toBeNull();
    expect(s.repairDue(5000)).toBe(1);
    expect(seqs(s.offer(n(2), 5000))).toEqual([2]);
    expect(seqs(s.offer(n(3), 5100))).toEqual([3]);
    expect(s.repairDue(100_000)).toBeNull();
    s.markSeen(3, 100_000);
    expect(s.repairDue(200_000)).toBeNull();
  });

  it("passes over what the station pruned, still delivering the held ones among them", () => {
    const s = new StationStream(0, opts);
    s.offer(n(3), 0);
    s.offer(n(7), 0);
    expect(seqs(s.skipTo(6, 0))).toEqual([3]);
    expect(s.counts.unavailable).toBe(4); // 1, 2, 4, 5
    expect(s.delivered).toBe(5);
    expect(seqs(s.offer(n(6), 0))).toEqual([6, 7]);
    const empty = new StationStream(0, opts);
    expect(empty.skipTo(1_000_001, 0)).toEqual([]);
    expect(empty.delivered).toBe(1_000_000);
    expect(empty.counts.unavailable).toBe(1_000_000);
  });

  it("takes a replay page in seq order, passing over the pruned prefix and the notifications too large to send", () => {
    const s = new StationStream(0, opts);
    s.offer(n(9), 0);
    const page = {
      notifications: [n(3), n(4), n(6), n(8)],
      skipped: [
        { seq: 5, bytes: 300_000 },
        { seq: 7, bytes: 300_000 },
      ],
      last_seq: 12,
      first_available_seq: 3,
    };
    expect(seqs(s.takePage(page, 0))).toEqual([3, 4, 6, 8, 9]);
    expect(s.counts.unavailable).toBe(4); // 1 and 2 pruned, 5 and 7 too large
    expect(s.delivered).toBe(9);
    expect(s.repairTarget).toBe(12); // the page's mark was taken in
  });

  it("takes a page with no skipped member as before (a station of an older version)", () => {
    const s = new StationStream(2, opts);
    const page = { notifications: [n(3), n(4)], last_seq: 4, first_available_seq: 1 };
    expect(seqs(s.takePage(page, 0))).toEqual([3, 4]);
    expect(s.counts.unavailable).toBe(0);
    expect(s.takePage(page, 0)).toEqual([]);
    expect(s.counts.duplicates).toBe(2);
  });
});
