import { rmSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { deadline, until } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import { ITEM, pickBody, pickLine, SR } from "../../support/station.js";

const dir = tempDir("pps-edge-kill-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function must(res: Promise<Response>): Promise<Record<string, unknown>> {
  const r = await res;
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${r.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

interface Page {
  notifications: Array<{
    seq: number;
    notification: { notification_type: string; notification_data: Record<string, unknown> };
  }>;
  lastSeq: number;
}

async function allNotifications(a: ChildAgent) {
  const out: Page["notifications"] = [];
  for (let after = 0; ; ) {
    const page = (await (
      await a.call("GET", `/station/notifications?after=${after}&limit=1000`)
    ).json()) as Page;
    out.push(...page.notifications);
    if (page.notifications.length < 1000) return { list: out, lastSeq: page.lastSeq };
    after = page.notifications.at(-1)?.seq ?? after;
  }
}

describe("SIGKILL in the middle of creates and pick transactions", () => {
  it(
    "loses no acknowledged change and no notification; the sequence has no gap",
    async () => {
      const a = await startChildAgent(dir);
      await must(a.call("POST", ITEM, itemBody("K")));
      await must(
        a.call("PUT", "/station/stock", { location: "K1", msu: "KM", product_sku: "K", quantity: 1_000_000 }),
      );
      await must(a.call("POST", "/station/seats/front/login", { user: "kim" }));
      // Eight long orders occupy the eight bins and lock at the rack: each pick transaction is one change.
      for (let i = 0; i < 8; i++)
        await must(a.call("POST", SR, pickBody(`LONG-${i}`, [pickLine(`LONG-${i}-1`, "K", 100_000)])));
      await must(a.call("POST", "/station/racks", { msu: "KM", locations: ["K1"] }));

      const ackedCreates: string[] = [];
      const ackedPicks = new Map<string, number>();
      let stop = false;
      const creator = (async () => {
        for (let i = 0; !stop; i++) {
          try {
            await must(a.call("POST", SR, pickBody(`C-${i}`, [pickLine(`C-${i}-1`, "K", 1)])));
            ackedCreates.push(`C-${i}`);
          } catch {
            return;
          }
        }
      })();
      const pickers = Array.from({ length: 4 }, (_, w) =>
        (async () => {
          for (let i = 0; !stop; i++) {
            const id = `LONG-${(w * 2 + (i % 2)) % 8}`;
            try {
              await must(
                a.call("POST", "/station/picks", {
                  externalServiceRequestId: id,
                  line: `${id}-1`,
                  location: "K1",
                  quantity: 1,
                }),
              );
              ackedPicks.set(id, (ackedPicks.get(id) ?? 0) + 1);
            } catch {
              return;
            }
          }
        })(),
      );
      // Let the stream run until it has done that much work, however long that takes on this machine,
      // then cut the process off without warning.
      const picked = () => [...ackedPicks.values()].reduce((n, x) => n + x, 0);
      await until(
        "150 creates and 21 picks acknowledged",
        () => ackedCreates.length >= 150 && picked() > 20,
        60_000,
        {
          seen: () => `${ackedCreates.length} creates, ${picked()} picks`,
        },
      );
      await a.kill();
      stop = true;
      await Promise.all([creator, ...pickers]);

      const b = await startChildAgent(dir);
      try {
        for (const id of ackedCreates) {
          const r = await must(b.call("GET", `${SR}/${id}?type=PICK`));
          expect(r.externalServiceRequestId).toBe(id);
        }
        const { list, lastSeq } = await allNotifications(b);
        expect(list.map((x) => x.seq)).toEqual(Array.from({ length: lastSeq }, (_, i) => i + 1));
        const infoFor = (id: string) =>
          list.filter(
            (x) =>
              x.notification.notification_type === "order_information" &&
              x.notification.notification_data.externalServiceRequestId === id,
          );
        for (const id of ackedCreates) expect(infoFor(id).length).toBeGreaterThanOrEqual(1);
        let totalPicks = 0;
        for (const [id, acked] of ackedPicks) {
          totalPicks += acked;
          const r = (await must(b.call("GET", `${SR}/${id}?type=PICK`))) as {
            serviceRequests: Array<{ actuals: { containers: unknown[] } | null }>;
          };
          // every acknowledged pick is there (one more may have committed as its answer was cut off)
          expect(r.serviceRequests[0]?.actuals?.containers.length ?? 0).toBeGreaterThanOrEqual(acked);
          expect(
            infoFor(id).filter((x) => x.notification.notification_data.state === "pick_started").length,
          ).toBeGreaterThanOrEqual(acked);
        }
        expect(totalPicks).toBeGreaterThan(20);
        // the station goes on: the next notification follows the last one
        await must(b.call("POST", SR, pickBody("AFTER", [pickLine("AFTER-1", "K", 1)])));
        const again = await allNotifications(b);
        expect(again.list.at(-1)?.seq).toBe(lastSeq + 1);
      } finally {
        await b.stop();
      }
    },
    deadline(60_000),
  );
});
