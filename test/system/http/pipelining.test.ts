import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";

/**
 * Pipelined requests over a real socket (docs/limits.md): a client that sends hundreds of requests on
 * one connection and never reads the answers gets only a few of them worked on; the rest wait, and the
 * socket is not read further until the answers are taken. Read in the end, every answer arrives, in order.
 */

let t: TestAgent | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function listening(): Promise<number> {
  t = await startTestAgent({}, { listen: true });
  return t.agent.address?.port as number;
}

/** How many requests for `route` the agent has answered so far (its own `/metrics`). */
async function answered(route: string): Promise<number> {
  const text = await (await t?.request("/metrics", SCRAPE))?.text();
  let n = 0;
  for (const line of text?.split("\n") ?? []) {
    if (line.startsWith("http_requests_total{") && line.includes(`route="${route}"`))
      n += Number(line.split(" ").pop());
  }
  return n;
}

function connected(port: number): Promise<Socket> {
  return new Promise((ok, fail) => {
    const s = connect(port, "127.0.0.1", () => ok(s));
    s.once("error", fail);
  });
}

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Reads the socket until `count` answers' status lines have arrived (or it closes): their statuses. */
function readAnswers(socket: Socket, count: number): Promise<number[]> {
  return new Promise((ok) => {
    let tail = "";
    const statuses: number[] = [];
    const done = () => ok(statuses);
    socket.on("data", (d: Buffer) => {
      // status lines only: keep the last few bytes so a line split across chunks is still seen
      const text = tail + d.toString("latin1");
      for (const m of text.matchAll(/HTTP\/1\.1 (\d{3}) /g)) statuses.push(Number(m[1]));
      tail = text.slice(-16).replace(/.*HTTP\/1\.1 \d{3} /s, "");
      if (statuses.length >= count) {
        socket.off("close", done);
        done();
      }
    });
    socket.once("close", done);
    socket.resume();
  });
}

describe("pipelined requests wait for their answers to be read", () => {
  it.each([
    ["/openapi.json", 900],
    ["/docs/assets/swagger-ui-bundle.js", 200],
  ])(
    "%s ×%i on one socket, answers unread: a few are worked on, all are served once read",
    async (path, n) => {
      const port = await listening();
      const socket = await connected(port);
      socket.pause(); // the client never reads: its receive buffer fills
      const one = `GET ${path} HTTP/1.1\r\nHost: station\r\n\r\n`;
      socket.write(one.repeat(n));
      await settle(1500);
      const before = await answered(path);
      // Only the few in flight, plus what the socket buffers held before writing stopped: far from all.
      expect(before).toBeLessThan(Math.min(n / 4, 60));
      // another client is served meanwhile
      const other = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(other.status).toBe(200);
      // reading the answers lets the rest through, each answered in order
      const statuses = await readAnswers(socket, n);
      expect(statuses).toHaveLength(n);
      expect(new Set(statuses)).toEqual(new Set([200]));
      socket.destroy();
    },
    deadline(60_000),
  );

  it(
    "a client that keeps sending and never reads is read no further once its answers fill the buffers",
    async () => {
      const port = await listening();
      const socket = await connected(port);
      socket.pause();
      let closed = false;
      socket.once("close", () => {
        closed = true;
      });
      // 20 MB of pipelined requests: more than the kernel's buffers on both ends hold
      const one = "GET /healthz HTTP/1.1\r\nHost: station\r\n\r\n";
      const block = one.repeat(10_000);
      const total = 20 * 1024 * 1024;
      for (let sent = 0; sent < total; sent += block.length) socket.write(block);
      await settle(2000);
      // the agent stopped reading: megabytes are still waiting in the client
      expect(socket.writableLength).toBeGreaterThan(total / 4);
      expect(closed).toBe(false);
      // what was answered is what the socket buffers took before they filled: far from all that was sent
      expect(await answered("/healthz")).toBeLessThan(total / one.length / 4);
      socket.destroy();
    },
    deadline(30_000),
  );
});
