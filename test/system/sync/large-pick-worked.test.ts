/**
 * A large pick worked to completion through the simulated station, line by line (scan the item, press
 * the bin's button), as an operator works it: every pick transaction commits an `order_information`
 * with the whole order, so the notifications grow towards a megabyte and more each, then `complete` and
 * `bin_complete` (docs/limits.md#a-large-pick-worked-to-completion). Each arrives at central, put
 * together from its parts (the reference consumer's code), and at a webhook receiver, byte for byte as
 * the feed has it, in order, none moved aside. On the embedded broker with `mqtt.maxMessageBytes` 512 KiB (webhook without a body limit)
 * and on Mosquitto with a 256 KiB packet limit (webhook with `webhooks.maxBodyBytes` 256 KiB). Central
 * checks each notification as it comes and keeps nothing, as a real one streams: a gigabyte of
 * notifications is not held in memory. 1,000 lines, the largest pick the agent takes; `LARGE_PICK_LINES=500`
 * works a quarter of the bytes for a quicker run (docs/decisions.md#a-large-pick-worked-to-completion).
 */
import mqtt from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { StationParts } from "../../../examples/central-consumer/src/parts.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { deadline, until } from "../../support/deadline.js";
import { ok, pickBody, pickLine, SR, seedItem, setStock } from "../../support/station.js";
import { CENTRAL, FAST, PPS, ROOT, SITE } from "../../support/sync/agent.js";
import { hasMosquitto, startMosquitto, type TestBroker } from "../../support/sync/brokers.js";
import { type Receiver, startReceiver } from "../../support/webhook-receiver.js";
import { endpoint, FAST_WEBHOOKS, realClock } from "../webhooks/support.js";

const LINES = Number(process.env.LARGE_PICK_LINES ?? 1000);

/**
 * Central's side of one stream (MQTT or webhook): each message put together (parts.ts), each whole
 * notification compared with the station's committed envelope at once and then dropped.
 */
class Checker {
  private readonly parts = new StationParts((_, f) => this.errors.push(`part refused: ${String(f.error)}`));
  readonly errors: string[] = [];
  last = 0;
  messages = 0;
  partMessages = 0;
  bytes = 0;
  doneAt = 0;

  constructor(
    private readonly envelope: (seq: number) => string | undefined,
    private readonly total: () => number,
  ) {}

  take(text: string): void {
    this.messages++;
    this.bytes += Buffer.byteLength(text);
    if (text.startsWith('{"notification_part"')) this.partMessages++;
    const whole = this.parts.take("dc1/7", text);
    if (whole === undefined) return;
    const seq = Number((JSON.parse(whole) as { notification_id: string }).notification_id.split(".").pop());
    if (seq <= this.last) return; // a repeat (a set sent again after a reconnect)
    if (seq !== this.last + 1) this.errors.push(`${seq} came after ${this.last}`);
    if (whole !== this.envelope(seq)) this.errors.push(`${seq} differs from the feed`);
    this.last = seq;
    if (seq === this.total()) this.doneAt = Date.now();
  }
}

const TARGETS = [
  {
    name: "the embedded broker with mqtt.maxMessageBytes 512 KiB, a webhook without a body limit",
    skip: false,
    mosquitto: false,
  },
  {
    name: "Mosquitto with max_packet_size 256 KiB, a webhook with webhooks.maxBodyBytes 256 KiB",
    skip: !hasMosquitto,
    mosquitto: true,
  },
];

let broker: TestBroker | undefined;
let t: TestAgent | undefined;
let receiver: Receiver | undefined;
let client: mqtt.MqttClient | undefined;
afterEach(async () => {
  await client?.endAsync();
  await t?.close();
  await receiver?.close();
  await broker?.close();
  client = t = receiver = broker = undefined;
});

describe(`a ${LINES}-line pick worked to completion`, () => {
  for (const target of TARGETS)
    it.skipIf(target.skip)(
      `reaches central and a webhook byte for byte, in order, on ${target.name}`,
      async () => {
        broker = target.mosquitto ? await startMosquitto({ extra: ["max_packet_size 262144"] }) : undefined;
        /** The largest MQTT message: the broker's packet limit less the agent's 1 KiB, or `mqtt.maxMessageBytes`. */
        const messageLimit = target.mosquitto ? 256 * 1024 - 1024 : 512 * 1024;
        receiver = await startReceiver();
        const maxBody = target.mosquitto ? 256 * 1024 : 0;
        const hook = receiver;
        if (maxBody) hook.script = (r) => ({ status: Buffer.byteLength(r.body) > maxBody ? 413 : 204 });
        t = await startTestAgent(
          {
            site: SITE,
            ppsId: PPS,
            mqtt: broker
              ? { url: broker.url, protocolVersion: broker.protocolVersion, ...FAST }
              : // 512 KiB: from some 320 lines on the notifications come in parts (1 MiB: from some 630)
                { url: "embedded", embeddedPort: 0, ...FAST, maxMessageBytes: 512 * 1024 },
            webhooks: {
              ...FAST_WEBHOOKS,
              timeoutMs: 10_000,
              endpoints: [endpoint("central", hook.url)],
              maxBodyBytes: maxBody,
            },
            // the same barcode scanned line after line, as fast as the test sends it
            station: { scanDebounceMs: 0 },
          },
          { listen: true },
        );
        realClock(t);
        const agent = t;
        const outbox = agent.agent.services.repos.outbox;
        const envelope = (seq: number) => outbox.after(seq - 1, 1)[0]?.envelope;
        let total = Number.POSITIVE_INFINITY; // known once the pick is complete
        const atCentral = new Checker(envelope, () => total);
        const atHook = new Checker(envelope, () => total);
        client = await mqtt.connectAsync(broker?.url ?? (agent.agent.sync.url as string), {
          ...(broker ? {} : CENTRAL),
          protocolVersion: broker?.protocolVersion ?? 4,
          clientId: `central-${process.pid}`,
          // central keeps a persistent session, as docs/mqtt.md asks of it: on a machine this busy its
          // connection may drop (a missed keepalive), and what was published meanwhile waits for it
          clean: false,
          ...(broker?.protocolVersion === 5 ? { properties: { sessionExpiryInterval: 3600 } } : {}),
          reconnectPeriod: 20,
        });
        let centralReconnects = 0;
        client.on("reconnect", () => centralReconnects++);
        client.on("message", (_topic, payload) => atCentral.take(payload.toString("utf8")));
        await client.subscribeAsync(`${ROOT}/notification`, { qos: 1 });
        // the webhook's bodies, taken as they come and let go
        const drain = setInterval(() => {
          for (const r of hook.accepted.splice(0)) atHook.take(r.body);
          hook.requests.splice(0);
        }, 20);
        try {
          await seedItem(agent, "A");
          await setStock(agent, "S1", "M1", "A", LINES);
          await ok(agent.call("POST", "/station/seats/front/login", { user: "alice" }));
          const lines = Array.from({ length: LINES }, (_, n) => pickLine(`L${n}`, "A", 1));
          await ok(agent.call("POST", SR, pickBody("P", lines)));
          const start = Date.now();
          let refusals = 0;
          await ok(agent.call("POST", "/station/sim/scan", { seat: "front", barcode: "M1" }));
          for (let n = 0; n < LINES; n++) {
            const lit = await ok(agent.call("POST", "/station/sim/scan", { seat: "front", barcode: "BC-A" }));
            expect(lit.outcome, `line ${n}`).toMatchObject({ result: "done", did: "bin_lit" });
            const press = () => ok(agent.call("POST", "/station/sim/press", { ppsBinId: "1" }));
            let pressed = await press();
            // the outbox's byte bound refuses work while central lags (docs/limits.md#notifications-in-parts):
            // the operator waits and presses again; nothing was lost
            const refused = () => pressed.outcome?.reason === "outbox_full";
            if (refused())
              await until(
                "the outbox taking the pick again",
                async () => {
                  refusals++;
                  pressed = await press();
                  return !refused();
                },
                120_000,
                { everyMs: 250 },
              );
            expect(
              pressed.outcome,
              `line ${n}: ${JSON.stringify(pressed.outcome).slice(0, 400)}`,
            ).toMatchObject({
              result: "done",
              did: "picked",
            });
          }
          const worked = Date.now() - start;
          total = outbox.lastSeq();
          const last = JSON.parse(envelope(total) as string) as { notification_type: string };
          expect(last.notification_type).toBe("bin_complete");
          await until(
            "every notification at central and at the webhook",
            () => atCentral.last >= total && atHook.last >= total,
            600_000,
            { seen: () => `central ${atCentral.last}, webhook ${atHook.last} of ${total}` },
          );
          const sizes = Array.from({ length: total }, (_, i) => Buffer.byteLength(envelope(i + 1) as string));
          const figures = {
            lines: LINES,
            notifications: total,
            envelopeBytes: sizes.reduce((a, b) => a + b, 0),
            largestBytes: Math.max(...sizes),
            mqttMessages: atCentral.messages,
            mqttParts: atCentral.partMessages,
            mqttBytes: atCentral.bytes,
            webhookRequests: atHook.messages,
            webhookParts: atHook.partMessages,
            workedMs: worked,
            outboxFullRefusals: refusals,
            centralDoneMs: atCentral.doneAt - start,
            webhookDoneMs: atHook.doneAt - start,
            centralReconnects,
          };
          console.log(`large pick figures ${target.name}: ${JSON.stringify(figures)}`);
          expect(atCentral.errors).toEqual([]);
          expect(atHook.errors).toEqual([]);
          expect(atCentral.last).toBe(total);
          expect(atHook.last).toBe(total);
          // each line adds over a kilobyte: a notification larger than a message came in parts, put together
          expect(figures.largestBytes).toBeGreaterThan(LINES * 1000);
          if (figures.largestBytes > messageLimit) expect(atCentral.partMessages).toBeGreaterThan(0);
          if (maxBody && figures.largestBytes > maxBody) expect(atHook.partMessages).toBeGreaterThan(0);
          expect(hook.unverified).toEqual([]);
          expect(outbox.deadCount()).toBe(0);
        } finally {
          clearInterval(drain);
        }
      },
      deadline(900_000),
    );
});
