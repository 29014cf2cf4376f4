import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { SCRAPE, startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";

/**
 * Clients that send requests and never read the answers (docs/limits.md#slow-readers), over real
 * sockets from several loopback addresses: they cannot hold every connection place, their answers
 * are cut at the send deadline, and the station's own clients are served while they run.
 */

let t: TestAgent | undefined;
let stopAttack = () => {};
afterEach(async () => {
  stopAttack();
  stopAttack = () => {};
  await t?.close();
  t = undefined;
});

async function listening(http: Record<string, unknown> = {}): Promise<number> {
  t = await startTestAgent({ http: { host: "127.0.0.1", port: 0, ...http } }, { listen: true });
  return t.agent.address?.port as number;
}

/** One request on its own socket, read to the end: the status, or the error if the socket was refused. */
function rawGet(
  port: number,
  path: string,
  localAddress = "127.0.0.1",
  auth?: string,
): Promise<number | string> {
  return new Promise((ok) => {
    const socket = connect({ port, host: "127.0.0.1", localAddress }, () => {
      const authorization = auth ? `Authorization: Bearer ${auth}\r\n` : "";
      socket.write(`GET ${path} HTTP/1.1\r\nHost: station\r\n${authorization}Connection: close\r\n\r\n`);
    });
    let text = "";
    socket.on("data", (d) => {
      text += d.toString("latin1");
    });
    socket.once("error", (e) => ok((e as NodeJS.ErrnoException).code ?? "error"));
    socket.once("close", () => ok(text ? Number(text.split(" ")[1]) : "closed without an answer"));
  });
}

/**
 * Hosts that never read: from each address, `perHost` sockets each pipelining `GET path` and sending one
 * more every half second; a socket the server closed (its next write fails) is opened again unless
 * `reconnect` is false. Returns the sockets connected so far, and what stops the attack.
 */
function neverReaders(port: number, hosts: string[], perHost: number, reconnect = true) {
  const path = "/openapi.json";
  let running = true;
  let connected = 0;
  const open = new Set<Socket>();
  const one = (from: string) => {
    if (!running) return;
    const s = connect({ port, host: "127.0.0.1", localAddress: from }, () => {
      connected++;
      s.pause();
      s.write(`GET ${path} HTTP/1.1\r\nHost: station\r\n\r\n`.repeat(20));
    });
    const more = setInterval(() => {
      if (s.writable) s.write(`GET ${path} HTTP/1.1\r\nHost: station\r\n\r\n`);
    }, 500);
    open.add(s);
    s.on("error", () => {});
    s.once("close", () => {
      clearInterval(more);
      open.delete(s);
      if (reconnect) setTimeout(() => one(from), 50);
    });
  };
  for (const from of hosts) for (let i = 0; i < perHost; i++) one(from);
  return {
    connected: () => connected,
    stop: () => {
      running = false;
      for (const s of open) s.destroy();
    },
  };
}

async function refusals(reason: string): Promise<number> {
  const text = (await (await t?.request("/metrics", SCRAPE))?.text()) ?? "";
  const m = new RegExp(`budget_refusals_total\\{reason="${reason}"\\} (\\d+)`).exec(text);
  return m ? Number(m[1]) : 0;
}

const ATTACKERS = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"];

describe("hosts that never read lock nobody out", () => {
  it(
    "four hosts holding 64 never-read connections each (every place): /healthz and an authenticated client are served",
    async () => {
      const port = await listening();
      const token = (await t?.token()) as string;
      const attack = neverReaders(port, ATTACKERS, 64);
      stopAttack = attack.stop;
      await until("the four hosts connected 256 sockets", () => attack.connected() >= 256, 10_000);
      // their answers fill their sockets: from here on, every place is held by a client that reads nothing
      await until(
        "the attackers' answers are waiting unread",
        async () => (await rawGet(port, "/healthz")) === 200,
      );
      for (let i = 0; i < 20; i++) {
        expect(await rawGet(port, "/healthz")).toBe(200);
        expect(await rawGet(port, "/station/state", "127.0.0.1", token)).toBe(200);
        expect(await rawGet(port, "/healthz", "127.0.0.6")).toBe(200);
      }
      // the places the station's clients took were freed by the station: connections that made no
      // progress, given up to a newcomer or cut for their unread answers
      const freed = ["http_evicted", "http_answer_bytes", "http_send_timeout"].map(refusals);
      expect((await Promise.all(freed)).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    },
    deadline(60_000),
  );

  it(
    "a socket that sends nothing is accepted and closed by the headers timeout, 10 s after accept, while the never-readers hold every place",
    async () => {
      const port = await listening();
      // they do not come back once closed: nobody else needs the silent socket's place
      const attack = neverReaders(port, ATTACKERS, 64, false);
      stopAttack = attack.stop;
      await until("the four hosts connected 256 sockets", () => attack.connected() >= 256, 10_000);
      const silent = connect({ port, host: "127.0.0.1" });
      let answer = "";
      silent.on("data", (d) => {
        answer += d.toString("latin1");
      });
      silent.on("error", () => {});
      const opened = performance.now();
      const lived = await new Promise<number>((ok) =>
        silent.once("close", () => ok(performance.now() - opened)),
      );
      // closed by the server's headers timeout (Node answers 408 first), not refused as it arrived
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(lived).toBeLessThan(deadline(10_000 + 2_000));
    },
    deadline(60_000),
  );
});

describe("the send deadline", () => {
  it(
    "a connection whose client stops taking its answers is closed after http.sendTimeoutMs; one that reads is served",
    async () => {
      const port = await listening({ sendTimeoutMs: 1000 });
      const attack = neverReaders(port, ["127.0.0.2"], 4);
      stopAttack = attack.stop;
      await until(
        "a never-reading connection closed by the send deadline",
        async () => (await refusals("http_send_timeout")) >= 4,
        20_000,
      );
      expect(await rawGet(port, "/openapi.json")).toBe(200);
    },
    deadline(60_000),
  );
});

/** Opens `n` sockets from `from` that send nothing; resolves once each is either held open or closed by the station. */
async function silentSockets(port: number, from: string, n: number) {
  const sockets = Array.from({ length: n }, () => {
    const s = connect({ port, host: "127.0.0.1", localAddress: from });
    s.on("error", () => {});
    s.resume(); // a socket the station closes sees its end
    return s;
  });
  await Promise.all(sockets.map((s) => new Promise((ok) => s.once("connect", ok))));
  return {
    sockets,
    destroy: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

describe("a host cut for unread answers is held to a few places", () => {
  it(
    "after its never-read connections are cut, it may hold 4 places for two send deadlines; another host is not held; then all its places again",
    async () => {
      // a hold of 8 s: room for a busy machine between the cut and the sockets below
      const port = await listening({ sendTimeoutMs: 4000 });
      const attack = neverReaders(port, ["127.0.0.2"], 8, false);
      stopAttack = attack.stop;
      await until(
        "the eight never-read connections cut by the send deadline",
        async () => (await refusals("http_send_timeout")) >= 8,
        20_000,
      );
      const refusedBefore = await refusals("http_connections_per_address");
      const held = await silentSockets(port, "127.0.0.2", 10);
      const other = await silentSockets(port, "127.0.0.3", 10);
      stopAttack = () => {
        attack.stop();
        held.destroy();
        other.destroy();
      };
      // six of the held host's ten are refused as they arrive; none of the other host's
      await until(
        "six of 127.0.0.2's sockets refused",
        async () => (await refusals("http_connections_per_address")) - refusedBefore >= 6,
        10_000,
      );
      await until(
        "the refused sockets closed",
        () => held.sockets.filter((s) => s.destroyed || s.readableEnded).length >= 6,
        10_000,
      );
      expect((await refusals("http_connections_per_address")) - refusedBefore).toBe(6);
      expect(other.sockets.filter((s) => s.readableEnded).length).toBe(0);
      held.destroy();
      other.destroy();
      // two send deadlines after the last cut the hold ends: ten at once are kept again
      await until(
        "127.0.0.2 holds ten places again",
        async () => {
          const before = await refusals("http_connections_per_address");
          const again = await silentSockets(port, "127.0.0.2", 10);
          await new Promise((ok) => setTimeout(ok, 200));
          const refused = (await refusals("http_connections_per_address")) - before;
          again.destroy();
          return refused === 0;
        },
        20_000,
        { everyMs: 500 },
      );
    },
    deadline(60_000),
  );
});

describe("slowhttptest's slow read (-X)", () => {
  it(
    "64 slow-read connections are closed by the station while the tool still runs; /healthz is served meanwhile",
    async () => {
      const port = await listening();
      // 64 connections (all one address may hold) reading 32 bytes every 5 s with a receive window of 512
      // to 1024 bytes, each asking for the API description 10 times over, for 60 s
      const args = ["-X", "-c", "64", "-r", "64", "-l", "60", "-k", "10", "-w", "512", "-y", "1024"];
      const tool = spawn(
        "slowhttptest",
        [...args, "-n", "5", "-z", "32", "-p", "5", "-u", `http://127.0.0.1:${port}/openapi.json`],
        { stdio: "ignore" },
      );
      stopAttack = () => tool.kill("SIGKILL");
      const ended = async () => (await refusals("http_send_timeout")) + (await refusals("http_answer_bytes"));
      await until(
        "the slow readers closed by the station",
        async () => {
          expect(await rawGet(port, "/healthz", "127.0.0.6")).toBe(200);
          return (await ended()) >= 64;
        },
        30_000,
        { everyMs: 500 },
      );
      // closed by the station, not because the tool gave up
      expect(tool.exitCode).toBeNull();
      expect(await rawGet(port, "/healthz", "127.0.0.6")).toBe(200);
    },
    deadline(60_000),
  );
});
