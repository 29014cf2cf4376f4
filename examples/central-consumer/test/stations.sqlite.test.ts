import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { splitNotification } from "../../../src/domain/notification-parts.js";
import { openPositions, type Positions } from "../src/positions.js";
import type { Replayer, ReplayPage } from "../src/replay.js";
import { DEFAULT_STREAM } from "../src/station-stream.js";
import { type Delivery, Stations } from "../src/stations.js";

const env = (seq: number) =>
  JSON.stringify({
    notification_type: "bin_complete",
    notification_id: `dc1.7.${seq}`,
    notification_data: {},
  });
/** No station answers here: a repair that starts fails, which these tests do not reach. */
const silent: Replayer = {
  ask: () => Promise.reject(new Error("no station")),
  answer: () => {},
  cancel: () => {},
};

let dir: string | undefined;
const stores: Positions[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const s of stores.splice(0)) s.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function replica(name: string, file: string, handed: Delivery[], replay: Replayer = silent): Stations {
  const store = openPositions(file);
  stores.push(store);
  return new Stations({
    store,
    sink: (batch) => handed.push(...batch),
    replay,
    stream: DEFAULT_STREAM,
    replayLimit: 100,
    log: () => {},
    owner: name,
  });
}

describe("replicas sharing positions (the RabbitMQ path)", () => {
  it("the one that takes a station over continues from the stored position, and never hands one on twice", () => {
    dir = mkdtempSync(join(tmpdir(), "central-consumer-"));
    const file = join(dir, "central.db");
    const handed: Delivery[] = [];
    const a = replica("a", file, handed);
    const b = replica("b", file, handed);
    for (const seq of [1, 2, 3]) a.notification("dc1/7", env(seq));
    // a's queue moves to b: what a had not acknowledged comes again, then the new ones
    for (const seq of [3, 4, 5]) b.notification("dc1/7", env(seq));
    // and back to a, which still remembers 3 but must continue after b's 5
    for (const seq of [5, 6]) a.notification("dc1/7", env(seq));
    expect(handed.map((d) => d.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(b.stats().duplicates + a.stats().duplicates).toBe(2);
  });

  it("a replay answer that comes after another replica moved the station on hands nothing on twice", async () => {
    dir = mkdtempSync(join(tmpdir(), "central-consumer-"));
    const file = join(dir, "central.db");
    const handed: Delivery[] = [];
    let answer: (page: ReplayPage) => void = () => {};
    const a = replica("a", file, handed, {
      ask: () => new Promise<ReplayPage>((ok) => (answer = ok)),
      answer: () => {},
      cancel: () => {},
    });
    const b = replica("b", file, handed);
    vi.useFakeTimers({ toFake: ["Date"] });
    a.notification("dc1/7", env(1));
    a.notification("dc1/7", env(3)); // 2 lost: a asks the station for it once the gap's grace is over
    vi.advanceTimersByTime(DEFAULT_STREAM.gapGraceMs);
    a.tick();
    expect(a.stats().replayRequests).toBe(1);
    // meanwhile the queue moved to b, which repaired and delivered up to 4 itself
    for (const seq of [2, 3, 4]) b.notification("dc1/7", env(seq));
    answer({
      notifications: [{ seq: 2, payload: env(2) }],
      next_after: 2,
      more: false,
      last_seq: 4,
      first_available_seq: 1,
    });
    await new Promise((ok) => setImmediate(ok)); // the answer's page is taken once the promises settle
    expect(handed.map((d) => d.seq)).toEqual([1, 2, 3, 4]);
    expect(a.stats().duplicates).toBe(2); // the 2 of the page and the 3 it held, both b's already
  });

  it("a station's high-water mark counts only at the replica that delivered it last", () => {
    dir = mkdtempSync(join(tmpdir(), "central-consumer-"));
    const file = join(dir, "central.db");
    const handed: Delivery[] = [];
    const a = replica("a", file, handed);
    const b = replica("b", file, handed);
    a.notification("dc1/7", env(1));
    b.stationState("dc1/7", JSON.stringify({ lastNotificationSeq: 9 }));
    // b never delivered dc1/7: it does not even start following it
    expect(b.has("dc1/7")).toBe(false);
  });
});

describe("notifications that came in parts (docs/mqtt.md#notifications-in-parts)", () => {
  it("are put together and handed on as the station committed them, in order; a bad set is a gap", () => {
    dir = mkdtempSync(join(tmpdir(), "central-consumer-"));
    const handed: Delivery[] = [];
    const logged: string[] = [];
    const store = openPositions(join(dir, "central.db"));
    stores.push(store);
    const s = new Stations({
      store,
      sink: (batch) => handed.push(...batch),
      replay: silent,
      stream: DEFAULT_STREAM,
      replayLimit: 100,
      log: (event) => logged.push(event),
    });
    const big = JSON.stringify({
      notification_type: "order_information",
      notification_id: "dc1.7.2",
      notification_data: { lines: Array.from({ length: 300 }, (_, n) => ({ n, sku: "ü€" })) },
    });
    const parts = splitNotification(Buffer.from(big), "dc1.7.2", 1024).map((p) => p.toString());
    expect(parts.length).toBeGreaterThan(3);
    s.notification("dc1/7", env(1));
    for (const p of parts.slice(0, 2)) s.notification("dc1/7", p);
    expect(handed.map((d) => d.seq)).toEqual([1]);
    // a reconnect between parts: the station sends the whole set again
    for (const p of parts) s.notification("dc1/7", p);
    s.notification("dc1/7", env(3));
    expect(handed.map((d) => d.seq)).toEqual([1, 2, 3]);
    expect(handed[1]?.payload).toBe(big);
    expect(logged).not.toContain("part_refused");
    // seq 4 loses a part: refused when 5 arrives, and 5 waits for the repair of 4
    const four = splitNotification(Buffer.from(big.replace("dc1.7.2", "dc1.7.4")), "dc1.7.4", 1024);
    for (const p of four.slice(1)) s.notification("dc1/7", p.toString());
    s.notification("dc1/7", env(5));
    expect(logged).toContain("part_refused");
    expect(handed.map((d) => d.seq)).toEqual([1, 2, 3]);
  });
});

describe("a large notification missing at central is filled by replay in parts (docs/mqtt.md#large-notifications-by-replay)", () => {
  it("asks part after part, hands on the envelope as committed, then goes on after it", async () => {
    dir = mkdtempSync(join(tmpdir(), "central-consumer-"));
    const handed: Delivery[] = [];
    const asked: Array<{ after: number; part: number | undefined }> = [];
    const big = JSON.stringify({
      notification_type: "order_information",
      notification_id: "dc1.7.2",
      notification_data: { lines: Array.from({ length: 300 }, (_, n) => ({ n, sku: 'ü€"\\' })) },
    });
    const parts = splitNotification(Buffer.from(big), "dc1.7.2", 1024).map((p) => p.toString());
    // the station: 2 comes one part a page, then 3 and 4 whole
    const replay: Replayer = {
      ask: async (_station, after, _limit, part) => {
        asked.push({ after, part });
        const base = { last_seq: 4, first_available_seq: 1 };
        if (after === 1) {
          const index = part ?? 0;
          const last = index === parts.length - 1;
          return {
            ...base,
            notifications: [],
            next_after: last ? 2 : 1,
            more: true,
            part: { seq: 2, index, count: parts.length, payload: parts[index] as string },
          };
        }
        return {
          ...base,
          notifications: [3, 4].map((seq) => ({ seq, payload: env(seq) })),
          next_after: 4,
          more: false,
        };
      },
      answer: () => {},
      cancel: () => {},
    };
    const store = openPositions(join(dir, "central.db"));
    stores.push(store);
    const logged: string[] = [];
    const s = new Stations({
      store,
      sink: (batch) => handed.push(...batch),
      replay,
      stream: DEFAULT_STREAM,
      replayLimit: 100,
      log: (event) => logged.push(event),
    });
    vi.useFakeTimers({ toFake: ["Date"] });
    s.notification("dc1/7", env(1));
    s.stationState("dc1/7", JSON.stringify({ lastNotificationSeq: 4 })); // 2 to 4 lost by the broker
    vi.advanceTimersByTime(DEFAULT_STREAM.markGraceMs);
    s.tick();
    await vi.waitUntil(() => handed.length === 4 || s.stats().replayFailures > 0);
    expect(handed.map((d) => d.seq)).toEqual([1, 2, 3, 4]);
    expect(handed[1]?.payload).toBe(big);
    expect(asked).toEqual([...parts.map((_, part) => ({ after: 1, part })), { after: 2, part: 0 }]);
    expect(s.stats().unavailable).toBe(0);
    expect(logged).not.toContain("part_refused");
  });
});
