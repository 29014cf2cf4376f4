/**
 * The embedded broker keeps each retained payload in a buffer of its own size, not the slice of the
 * socket chunk it arrived in (src/sync/broker-retained.ts): a retained state message must not pin
 * the whole read chunk for as long as its topic lives.
 */
import { createServer } from "node:net";
import { Aedes } from "aedes";
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { ownPayload, ownRetainedPayloads } from "../../../src/sync/broker-retained.js";

interface Stored {
  topic: string;
  payload: Buffer;
}
const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function retainedAfterPublishing(messages: Array<[string, string]>): Promise<Stored[]> {
  const broker = await Aedes.createBroker();
  ownRetainedPayloads(broker, { maxMessages: 1000, maxBytes: 1 << 20 }, () => {});
  const server = createServer((socket) => broker.handle(socket));
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
  stops.push(async () => {
    await client.endAsync();
    await new Promise<void>((ok) => server.close(() => ok()));
    await new Promise<void>((ok) => broker.close(() => ok()));
  });
  // all in one go, so several packets share one read chunk at the broker
  await Promise.all(messages.map(([t, p]) => client.publishAsync(t, p, { qos: 1, retain: true })));
  const persistence = (
    broker as unknown as { persistence: { createRetainedStream(p: string): AsyncIterable<Stored> } }
  ).persistence;
  const out: Stored[] = [];
  for await (const packet of persistence.createRetainedStream("state/#")) out.push(packet);
  return out.sort((a, b) => a.topic.localeCompare(b.topic));
}

describe("retained payloads on the embedded broker", () => {
  it("are stored in buffers of their own size, with the bytes sent", async () => {
    const sent: Array<[string, string]> = Array.from({ length: 20 }, (_, i) => [
      `state/PICK/P${String(i).padStart(2, "0")}`,
      JSON.stringify({ externalServiceRequestId: `P${i}`, pad: "x".repeat(1500) }),
    ]);
    const stored = await retainedAfterPublishing(sent);
    expect(stored.map((p) => [p.topic, p.payload.toString("utf8")])).toEqual(sent);
    for (const p of stored)
      expect([p.topic, p.payload.buffer.byteLength]).toEqual([p.topic, p.payload.length]);
  });

  it("an empty retained message still clears the topic", async () => {
    const stored = await retainedAfterPublishing([
      ["state/PICK/A", "{}"],
      ["state/PICK/B", "{}"],
    ]);
    expect(stored.map((p) => p.topic)).toEqual(["state/PICK/A", "state/PICK/B"]);
    const cleared = await retainedAfterPublishing([
      ["state/PICK/A", "{}"],
      ["state/PICK/A", ""],
    ]);
    expect(cleared).toEqual([]);
  });

  it("copies a slice out of its chunk and leaves a buffer of its own as it is", () => {
    const chunk = Buffer.from("header|payload|next");
    const slice = chunk.subarray(7, 14);
    const own = ownPayload(slice);
    expect([own.toString(), own.buffer.byteLength]).toEqual(["payload", 7]);
    const whole = Buffer.allocUnsafeSlow(3);
    expect(ownPayload(whole)).toBe(whole);
    expect(ownPayload("text")).toBe("text");
  });
});
