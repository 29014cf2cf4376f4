import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { createSender, webhookHeaders } from "../../../src/webhook-delivery/sender.js";

const SECRET = `whsec_${Buffer.alloc(32, 5).toString("base64")}`;
const STRICT = { loopback: false, linkLocal: false };
const sender = (url: string, allow = STRICT, selfPort = 8080) =>
  createSender({ url, secret: SECRET, timeoutMs: 1000, allow, selfPort, now: Date.now });
const delivery = { notificationId: "dc1.1.7", payload: Buffer.from('{"notification_id":"dc1.1.7"}') };

describe("one webhook attempt", () => {
  it("signs as Standard Webhooks v1: the verifier accepts the headers for the body as sent", () => {
    const now = Date.now();
    const headers = webhookHeaders(new Webhook(SECRET), delivery, now);
    expect(headers["webhook-id"]).toBe("dc1.1.7");
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(now / 1000)));
    expect(() => new Webhook(SECRET).verify(delivery.payload, headers)).not.toThrow();
    // one byte changed: refused
    expect(() => new Webhook(SECRET).verify(Buffer.from('{"notification_id":"dc1.1.8"}'), headers)).toThrow();
  });

  it("never connects to a metadata address, nor to a name that resolves to loopback when not allowed", async () => {
    const meta = sender("http://169.254.169.254/latest/meta-data/");
    expect(await meta.attempt(delivery)).toMatchObject({
      kind: "refused",
      error: expect.stringMatching(/metadata/),
    });
    const local = sender("http://localhost:9/hook");
    expect(await local.attempt(delivery)).toMatchObject({
      kind: "refused",
      error: expect.stringMatching(/loopback/),
    });
    const self = sender("http://127.0.0.1:8080/hook", { loopback: true, linkLocal: false });
    expect(await self.attempt(delivery)).toMatchObject({
      kind: "refused",
      error: expect.stringMatching(/own port/),
    });
    for (const s of [meta, local, self]) s.close();
  });
});

/**
 * An endpoint written before a spelling was recognised is refused when it would connect: an address
 * literal is never looked up, so the sender checks it itself (docs/webhooks.md#safety). Port 9 (discard):
 * nothing is meant to answer there.
 */
const STORED: Array<[string, RegExp]> = [
  ["http://[::ffff:127.0.0.1]:9/hook", /loopback/],
  ["http://[::ffff:7f00:1]:9/hook", /loopback/],
  ["http://[::127.0.0.1]:9/hook", /loopback/],
  ["http://[64:ff9b::7f00:1]:9/hook", /loopback/],
  ["http://[2002:7f00:1::]:9/hook", /loopback/],
  ["http://2130706433:9/hook", /loopback/],
  ["http://0177.0.0.1:9/hook", /loopback/],
  ["http://0x7f.1:9/hook", /loopback/],
  ["http://127.1:9/hook", /loopback/],
  ["http://127.0.0.1.:9/hook", /loopback/],
  ["http://[::ffff:169.254.169.254]:9/", /metadata/],
  ["http://[::ffff:a9fe:a9fe]:9/", /metadata/],
  ["http://[64:ff9b::a9fe:a9fe]:9/", /metadata/],
  ["http://[2002:a9fe:a9fe::]:9/", /metadata/],
  ["http://[::ffff:100.100.100.200]:9/", /metadata/],
  ["http://[::ffff:168.63.129.16]:9/", /metadata/],
  ["http://[::ffff:169.254.1.1]:9/", /link-local/],
];

describe("one webhook attempt to an address literal", () => {
  it.each(STORED)("never connects to %s", async (url, words) => {
    const s = sender(url);
    expect(await s.attempt(delivery)).toEqual({ kind: "refused", error: expect.stringMatching(words) });
    s.close();
  });

  it("never connects to the agent itself in a mapped spelling, where loopback is allowed", async () => {
    const s = sender("http://[::ffff:7f00:1]:8080/hook", { loopback: true, linkLocal: false });
    expect(await s.attempt(delivery)).toEqual({
      kind: "refused",
      error: expect.stringMatching(/own port/),
    });
    s.close();
  });
});
