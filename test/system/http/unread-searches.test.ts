import { readFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { deadline, until } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import { tempDir } from "../../support/temp-dirs.js";

/**
 * Big answers held for clients that do not read them (docs/limits.md#slow-readers): the agent in its
 * own process with a small heap, 40 items of 300 KB (one search answers 12 MB), and a client that
 * pipelines searches on 8 connections and never reads. The answers waiting are held to
 * `http.answerBufferBytes` and each answer is assembled one item at a time as its client takes it: the
 * agent survives, its memory grows by little more than the budget, and it serves its other clients.
 */

const ITEM = "/api-gateway/mdm-service/wms-masterdata/item";
const SEARCH = `${ITEM}/search_v2`;
const SCRAPE_TOKEN = "unread-searches-scrape-123";
const SHARED = { unique: [["product_sku", "client_id"]], type: "object" };

let agent: ChildAgent | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await agent?.kill();
  agent = undefined;
});

async function refused(base: string, reason: string): Promise<number> {
  const res = await fetch(`${base}/metrics`, { headers: { Authorization: `Bearer ${SCRAPE_TOKEN}` } });
  const m = new RegExp(`budget_refusals_total\\{reason="${reason}"\\} (\\d+)`).exec(await res.text());
  return m ? Number(m[1]) : 0;
}

/** The agent process's peak resident memory so far (VmHWM), in MB. */
function peakRssMb(a: ChildAgent): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${a.proc.pid}/status`, "utf8"))?.[1];
  return Math.round(Number(kb) / 1024);
}

/** One search on its own socket from `from`, read to the end: status, `Retry-After` and error code. */
function rawSearch(port: number, from: string, request: string) {
  return new Promise<{ status: number; retryAfter?: string; code?: string }>((ok, fail) => {
    const s = connect({ port, host: "127.0.0.1", localAddress: from }, () =>
      s.write(request.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n")),
    );
    const chunks: Buffer[] = [];
    s.on("data", (d: Buffer) => chunks.push(d));
    s.once("error", fail);
    s.once("close", () => {
      const text = Buffer.concat(chunks).toString("latin1");
      const [head = "", body = ""] = text.split("\r\n\r\n");
      const retryAfter = /\r\nretry-after: (\S+)/i.exec(head)?.[1];
      const code = body.startsWith("{") ? (JSON.parse(body) as { code?: string }).code : undefined;
      ok({ status: Number(head.split(" ")[1]), retryAfter, code });
    });
  });
}

describe("searches pipelined and never read", () => {
  it(
    "8 connections × 100 searches of 12 MB answers, never read, against a 128 MB heap: the agent lives and serves",
    async () => {
      agent = await startChildAgent(
        tempDir(),
        {
          PPS_EDGE_METRICS_TOKEN: SCRAPE_TOKEN,
          // the per-user rate is not what holds this attack: it is set out of the way
          PPS_EDGE_HTTP_COSTLY_REQUESTS_PER_SECOND: "100000",
          PPS_EDGE_HTTP_COSTLY_BURST: "100000",
          // each answer holds one item at a time, so the budget is not what ends them: the send deadline
          // does, and then holds the address back as long
          PPS_EDGE_HTTP_SEND_TIMEOUT_MS: "10000",
        },
        20_000,
        ["--max-old-space-size=128"],
      );
      const a = agent;
      const image = "I".repeat(300 * 1024);
      for (let i = 0; i < 40; i++) {
        const body = itemBody(`BIG-${i}`, {
          schema: SHARED,
          imageData: image,
          productAttributes: { product_sku: `BIG-${i}`, client_id: "BIG" },
        });
        expect((await a.call("POST", ITEM, body)).status).toBe(200);
      }
      const seeded = peakRssMb(a);
      const all = JSON.stringify({ filter_params: [{ key: "client_id", operator: "=", value: "BIG" }] });
      const one = { filter_params: [{ key: "product_sku", operator: "=", value: "BIG-7" }] };
      const port = Number(new URL(a.base).port);
      const request =
        `POST ${SEARCH} HTTP/1.1\r\nHost: station\r\nAuthorization: Bearer ${a.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(all)}\r\n\r\n${all}`;
      for (let i = 0; i < 8; i++) {
        const s = connect({ port, host: "127.0.0.1", localAddress: "127.0.0.2" }, () => {
          s.pause();
          s.write(request.repeat(100));
        });
        s.on("error", () => {});
        sockets.push(s);
      }
      // while the unread answers are cut, the agent's own clients are served
      let rounds = 0;
      await until(
        "the never-reading connections cut by the answer budget or the send deadline, the agent serving",
        async () => {
          expect((await fetch(`${a.base}/healthz`)).status).toBe(200);
          const found = await a.call("POST", SEARCH, one);
          expect(found.status).toBe(200);
          expect(((await found.json()) as unknown[]).length).toBe(1);
          rounds++;
          const cut =
            (await refused(a.base, "http_answer_bytes")) + (await refused(a.base, "http_send_timeout"));
          return cut >= 8 && rounds >= 20;
        },
        30_000,
        { everyMs: 250 },
      );
      expect(a.proc.exitCode).toBeNull();
      expect((await fetch(`${a.base}/healthz`)).status).toBe(200);
      // the attack's answers are held to the budget and one item per answer in the making: its memory
      // is the budget (32 MiB) and little more, however many searches were pipelined
      const peak = peakRssMb(a);
      console.log(
        `unread searches: the agent's peak RSS ${seeded} MB after seeding, ${peak} MB after the attack`,
      );
      expect(peak - seeded).toBeLessThan(96);
      // the address whose answers were cut, now reading, is refused a search: it must wait and read first
      const again = await rawSearch(port, "127.0.0.2", request);
      expect(again).toMatchObject({ status: 503, retryAfter: "1", code: "answers_backlog" });
    },
    deadline(120_000),
  );
});
