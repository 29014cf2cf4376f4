/**
 * A broker that answers only what the test scripts: a real TCP listener on loopback that parses and
 * writes MQTT 3.1.1 packets (mqtt-packet, the codec mqtt.js and aedes use) and records every packet a
 * client sends, in order. CONNECT gets a CONNACK and PINGREQ a PINGRESP; anything else gets what
 * `answer` returns, so a test can hold back a SUBACK or a PUBACK, or refuse a subscription; `"close"`
 * closes the connection instead, as a broker that kicks the client after accepting it.
 */
import { createServer, type Socket } from "node:net";
import mqttPacket, { type Packet } from "mqtt-packet";
import { freePort } from "./brokers.js";
import { waitOn } from "./subscriber.js";

export interface ScriptedBroker {
  url: string;
  protocolVersion: 4;
  /** Every packet received, oldest first, across connections. */
  packets: Packet[];
  /** When each of `packets` arrived (Date.now()), by index. */
  receivedAt: number[];
  waitFor(what: string, done: (packets: Packet[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startScriptedBroker(
  answer: (packet: Packet) => Packet[] | "close" = () => [],
): Promise<ScriptedBroker> {
  const port = await freePort();
  const packets: Packet[] = [];
  const receivedAt: number[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    const send = (p: Packet) => socket.write(mqttPacket.generate(p, { protocolVersion: 4 }));
    parser.on("packet", (p: Packet) => {
      packets.push(p);
      receivedAt.push(Date.now());
      for (const w of [...waiters]) w();
      if (p.cmd === "connect") send({ cmd: "connack", returnCode: 0, sessionPresent: false });
      else if (p.cmd === "pingreq") send({ cmd: "pingresp" });
      else {
        const answered = answer(p);
        if (answered === "close") socket.destroy();
        else for (const a of answered) send(a);
      }
    });
    parser.on("error", () => socket.destroy());
    socket.on("data", (chunk) => parser.parse(chunk));
  });
  await new Promise<void>((ok, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => ok());
  });
  return {
    url: `mqtt://127.0.0.1:${port}`,
    protocolVersion: 4,
    packets,
    receivedAt,
    waitFor: (what, done, timeoutMs = 5000) =>
      waitOn(
        packets,
        waiters,
        what,
        done,
        timeoutMs,
        (seen) => `received: ${seen.map((p) => ("topic" in p ? `${p.cmd} ${p.topic}` : p.cmd)).join(", ")}`,
      ),
    async close() {
      const closed = new Promise<void>((ok) => server.close(() => ok()));
      for (const s of sockets) s.destroy();
      await closed;
    },
  };
}
