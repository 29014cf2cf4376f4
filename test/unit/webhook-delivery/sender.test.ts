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
