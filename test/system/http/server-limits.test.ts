import { Agent, request } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";

/**
 * The HTTP server's limits over real sockets: idle and slow clients are closed by the timeouts,
 * connections over the limit are refused, and an answer sent before the body was read closes its
 * connection cleanly (config `http.*`).
 */

const CATALOG = "/api-gateway/mdm-service/wms-masterdata/catalog";

let t: TestAgent | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function listening(http: Record<string, unknown>): Promise<number> {
  t = await startTestAgent({ http: { host: "127.0.0.1", port: 0, ...http } }, { listen: true });
  return t.agent.address?.port as number;
}

/** A socket that is connected (from `localAddress`, 127.0.0.1 unless given); `closed` resolves, when the server (or anyone) closes it, to how long it lived. */
function open(
  port: number,
  localAddress = "127.0.0.1",
): Promise<{ socket: Socket; closed: Promise<number> }> {
  return new Promise((ok, fail) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress });
    socket.on("data", () => {});
    const openedAt = performance.now();
    const closed = new Promise<number>((done) =>
      socket.once("close", () => done(performance.now() - openedAt)),
    );
    socket.once("connect", () => ok({ socket, closed }));
    socket.once("error", (e) => fail(e));
  });
}

/** One request on its own socket, raw: the status line's code, or the error if the socket was refused. */
function rawGet(port: number, path: string, localAddress = "127.0.0.1"): Promise<number | string> {
  return new Promise((ok) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress }, () =>
      socket.write(`GET ${path} HTTP/1.1\r\nHost: station\r\nConnection: close\r\n\r\n`),
    );
    let text = "";
    socket.on("data", (d) => {
      text += d.toString("latin1");
    });
    socket.once("error", (e) => ok((e as NodeJS.ErrnoException).code ?? "error"));
    socket.once("close", () => ok(text ? Number(text.split(" ")[1]) : "closed without an answer"));
  });
}

describe("idle and slow clients cannot starve the station", () => {
  it(
    "2,000 idle or half-sent connections are closed by the timeouts while a real client is served",
    async () => {
      const port = await listening({
        headersTimeoutMs: 500,
        requestTimeoutMs: 1000,
        maxConnections: 5000,
        maxConnectionsPerAddress: 5000,
      });
      const sockets: Awaited<ReturnType<typeof open>>[] = [];
      for (let batch = 0; batch < 10; batch++) {
        const opened = await Promise.all(Array.from({ length: 200 }, () => open(port)));
        // half say nothing at all, half start a request and never finish its headers (slow-loris)
        opened.forEach((o, i) => {
          if (i % 2) o.socket.write("GET /healthz HTTP/1.1\r\nHost: station\r\nX-Slow: ");
        });
        sockets.push(...opened);
      }
      expect(sockets).toHaveLength(2000);
      // the station still answers while the sockets hang
      expect(await rawGet(port, "/healthz")).toBe(200);
      const lifetimes = await Promise.all(sockets.map((s) => s.closed));
      // Each closed by the 500 ms headers timeout, checked every 250 ms: well within a few seconds of its
      // own opening (measured per socket, so the time spent opening the other 1,999 does not count).
      expect(Math.max(...lifetimes)).toBeLessThan(deadline(5000));
      expect(await rawGet(port, "/healthz")).toBe(200);
    },
    deadline(20_000),
  );

  it("connections over http.maxConnections are refused, those under it are served", async () => {
    const port = await listening({ maxConnections: 5 });
    const idle = await Promise.all(Array.from({ length: 4 }, () => open(port)));
    expect(await rawGet(port, "/healthz")).toBe(200);
    idle.push(await open(port));
    // the server has accepted the fifth: a sixth connection is closed without an answer
    await new Promise((r) => setTimeout(r, 50));
    expect(await rawGet(port, "/healthz")).not.toBe(200);
    idle.pop()?.socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect(await rawGet(port, "/healthz")).toBe(200);
    for (const s of idle) s.socket.destroy();
  });
});

describe("one host cannot take every connection", () => {
  it("a host holding its http.maxConnectionsPerAddress is refused more; another host is still served", async () => {
    const port = await listening({
      maxConnections: 20,
      maxConnectionsPerAddress: 5,
      headersTimeoutMs: 10_000,
    });
    // the greedy host (127.0.0.2 on the loopback) opens 20 idle sockets: only 5 are kept
    const greedy = await Promise.all(Array.from({ length: 20 }, () => open(port, "127.0.0.2")));
    let closed = 0;
    for (const g of greedy) g.closed.then(() => closed++);
    await until("15 of the greedy host's sockets closed", () => closed >= 15);
    await new Promise((r) => setTimeout(r, 200));
    expect(closed).toBe(15);
    expect(await rawGet(port, "/healthz", "127.0.0.2")).not.toBe(200);
    // another host is served while the greedy one holds its share
    for (let i = 0; i < 5; i++) expect(await rawGet(port, "/healthz", "127.0.0.1")).toBe(200);
    const metrics = await (await t?.request("/metrics", SCRAPE))?.text();
    expect(metrics).toMatch(/budget_refusals_total\{reason="http_connections_per_address"\} (\d+)/);
    for (const g of greedy) g.socket.destroy();
  });
});

describe("an answer sent before the body was read closes the connection cleanly", () => {
  function post(agent: Agent, port: number, body: string, token: string) {
    return new Promise<{ status: number; connection?: string; reused: boolean; closed: Promise<void> }>(
      (ok, fail) => {
        const req = request(
          {
            agent,
            port,
            host: "127.0.0.1",
            method: "POST",
            path: CATALOG,
            headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          },
          (res) => {
            const socket = res.socket;
            const closed = new Promise<void>((done) => socket.once("close", () => done()));
            res.resume();
            res.once("end", () =>
              ok({
                status: res.statusCode ?? 0,
                connection: res.headers.connection,
                reused: req.reusedSocket,
                closed,
              }),
            );
          },
        );
        req.once("error", fail);
        req.end(body);
      },
    );
  }

  it.each([
    ["just over the limit", 5_000],
    ["far over the limit, still arriving when the answer leaves", 2_000_000],
  ])(
    "a 413 for a body %s says Connection: close; the next request succeeds on a new socket",
    async (_, size) => {
      const port = await listening({ bodyLimitBytes: 4096 });
      const token = await t?.token();
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const big = JSON.stringify({ clientCatalogId: "x", description: "d".repeat(size) });
      const refused = await post(agent, port, big, token as string);
      expect(refused).toMatchObject({ status: 413, connection: "close" });
      await refused.closed; // the server closed the socket after the answer
      const ok = { clientCatalogId: "after-413", description: "fine", exhaustive_pdea_list: [] };
      const next = await post(agent, port, JSON.stringify(ok), token as string);
      expect(next).toMatchObject({ status: 200, reused: false });
      expect(next.connection).not.toBe("close");
      agent.destroy();
    },
  );
});
