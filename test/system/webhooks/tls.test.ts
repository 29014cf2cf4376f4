import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import type { TestAgent } from "../../support/agent.js";
import { makeCertificate } from "../../support/certificates.js";
import { deadline } from "../../support/deadline.js";
import { type Receiver, startReceiver, TEST_SECRET } from "../../support/webhook-receiver.js";
import { commit, FAST_WEBHOOKS, webhookAgent } from "./support.js";

/** HTTPS to the receiver: the server certificate checked against webhooks' CA file, mTLS with a client certificate. */
describe("webhooks over HTTPS", () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });
  const server = makeCertificate(undefined, "server");
  const client = makeCertificate(undefined, "client");

  async function mtlsReceiver(): Promise<Receiver> {
    const r = await startReceiver(TEST_SECRET, {
      cert: readFileSync(server.certFile),
      key: readFileSync(server.keyFile),
      // mutual TLS: only a client with the client certificate gets in
      ca: readFileSync(client.certFile),
      requestCert: true,
      rejectUnauthorized: true,
    });
    open.push(r);
    return r;
  }
  async function agent(endpoint: Record<string, unknown>): Promise<TestAgent> {
    // https only: plain HTTP stays refused
    const t = await webhookAgent([endpoint], { allow: { ...FAST_WEBHOOKS.allow, plainHttp: false } });
    open.push(t);
    return t;
  }
  const view = async (t: TestAgent) =>
    (await (await t.call("GET", "/station/webhooks/central")).json()) as {
      lastError: string | null;
      attempts: number;
    };
  async function failing(t: TestAgent): Promise<{ lastError: string | null; attempts: number }> {
    const until = Date.now() + deadline(5000);
    for (;;) {
      const v = await view(t);
      if (v.attempts >= 2 || Date.now() > until) return v;
      await new Promise((ok) => setTimeout(ok, 20));
    }
  }

  it("delivers with the CA file and the client certificate", async () => {
    const r = await mtlsReceiver();
    const t = await agent({
      id: "central",
      url: r.url,
      secret: TEST_SECRET,
      caFile: server.certFile,
      certFile: client.certFile,
      keyFile: client.keyFile,
    });
    commit(t, 5);
    await r.waitFor(5);
    expect(r.unverified).toEqual([]);
  });

  it("does not deliver to a server whose certificate the CA file does not vouch for", async () => {
    const r = await mtlsReceiver();
    const t = await agent({
      id: "central",
      url: r.url,
      secret: TEST_SECRET,
      certFile: client.certFile,
      keyFile: client.keyFile,
    });
    commit(t, 1);
    const v = await failing(t);
    expect(v.attempts).toBeGreaterThanOrEqual(2);
    expect(v.lastError).toMatch(/CERT|certificate/i);
    expect(r.requests).toHaveLength(0);
  });

  it("is refused by an mTLS receiver without the client certificate, and retried", async () => {
    const r = await mtlsReceiver();
    const t = await agent({ id: "central", url: r.url, secret: TEST_SECRET, caFile: server.certFile });
    commit(t, 1);
    const v = await failing(t);
    expect(v.attempts).toBeGreaterThanOrEqual(2);
    expect(r.requests).toHaveLength(0);
  });
});
