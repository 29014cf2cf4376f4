/**
 * The two aedes options the embedded broker tightens (docs/limits.md), over raw sockets so that
 * nothing between the test and the broker answers for it: a socket that never sends CONNECT is closed
 * after `connectTimeout` (10 s, not aedes' 30 s), and a client that sends QoS 2 PUBLISHes and never
 * the PUBREL gets at most `maxInflightInbound` (100, not aedes' 1,000) PUBRECs before the broker drops
 * it. Packets as MQTT 3.1.1 lays them out: §2.2 fixed header, §3.1 CONNECT, §3.3 PUBLISH.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { agentOn, CENTRAL, ROOT } from "../../support/sync/agent.js";

let t: TestAgent;
let port = 0;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await agentOn("embedded");
  port = Number(new URL(t.agent.sync.url as string).port);
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await t?.close();
});

/** A control packet: type and flags, the remaining length (§2.2.3), the rest. */
function packet(first: number, body: Buffer): Buffer {
  const length: number[] = [];
  let n = body.length;
  do {
    const digit = n % 128;
    n = Math.floor(n / 128);
    length.push(n > 0 ? digit | 0x80 : digit);
  } while (n > 0);
  return Buffer.concat([Buffer.from([first, ...length]), body]);
}

/** A UTF-8 string as MQTT encodes it: two bytes of length, then the bytes (§1.5.3). */
function str(s: string): Buffer {
  const b = Buffer.from(s, "utf8");
  return Buffer.concat([Buffer.from([b.length >> 8, b.length & 0xff]), b]);
}

function connectPacket(clientId: string, username: string, password: string): Buffer {
  // protocol "MQTT" level 4; flags: user name, password, clean session; keep alive 60 s
  const header = Buffer.concat([str("MQTT"), Buffer.from([4, 0xc2, 0, 60])]);
  return packet(0x10, Buffer.concat([header, str(clientId), str(username), str(password)]));
}

function qos2Publish(topic: string, id: number, payload: string): Buffer {
  return packet(0x34, Buffer.concat([str(topic), Buffer.from([id >> 8, id & 0xff]), Buffer.from(payload)]));
}

/** The types of the packets the broker sent, in order, until the socket closed. */
function readPackets(s: Socket): { types: number[]; closed: Promise<number> } {
  const types: number[] = [];
  let buf = Buffer.alloc(0);
  s.on("data", (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    // everything this test gets back is short: a one-byte remaining length
    while (buf.length >= 2 && buf.length >= 2 + (buf[1] as number)) {
      types.push((buf[0] as number) >> 4);
      buf = buf.subarray(2 + (buf[1] as number));
    }
  });
  const t0 = performance.now();
  const closed = new Promise<number>((ok) => s.once("close", () => ok(performance.now() - t0)));
  return { types, closed };
}

function open(): Promise<Socket> {
  return new Promise((ok, fail) => {
    const s = connect({ port, host: "127.0.0.1" }, () => ok(s));
    s.once("error", fail);
    sockets.push(s);
  });
}

describe("the embedded broker's aedes options", () => {
  it(
    "closes a socket that sends no CONNECT after 10 s (aedes' own default is 30 s)",
    async () => {
      const s = await open();
      const { types, closed } = readPackets(s);
      const ms = await closed;
      expect(types).toEqual([]);
      // never before the broker's 10 s; after it by what this machine takes to notice, far from aedes' 30 s
      expect(ms).toBeGreaterThan(9_000);
      expect(ms).toBeLessThan(10_000 + deadline(3000));
    },
    deadline(40_000),
  );

  it(
    "drops a client after 100 QoS 2 messages awaiting PUBREL (aedes' own default is 1,000)",
    async () => {
      const s = await open();
      const { types, closed } = readPackets(s);
      s.write(connectPacket(`inflight-${process.pid}`, CENTRAL.username, CENTRAL.password));
      await expect.poll(() => types[0], { timeout: deadline(5000) }).toBe(2); // CONNACK
      // 100 fresh packet ids, never a PUBREL: each one held by the broker until the connection ends
      const publish = (id: number) => s.write(qos2Publish(`${ROOT}/request/health_check`, id, "{}"));
      for (let id = 1; id <= 100; id++) publish(id);
      // PUBREC is type 5: one for each, and the connection stays
      await expect.poll(() => types.filter((x) => x === 5).length, { timeout: deadline(5000) }).toBe(100);
      expect(s.destroyed).toBe(false);
      // the 101st is one more than the broker holds: the connection goes (3.1.1 has no code to say why)
      publish(101);
      expect(await closed).toBeLessThan(deadline(10_000));
      expect(types.filter((x) => x === 5)).toHaveLength(100);
    },
    deadline(20_000),
  );
});
