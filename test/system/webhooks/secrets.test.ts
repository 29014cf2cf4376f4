import { afterEach, describe, expect, it } from "vitest";
import { redactSecrets } from "../../../src/log.js";
import { deadline } from "../../support/deadline.js";
import { LogLines } from "../../support/log-lines.js";
import { startReceiver, TEST_SECRET } from "../../support/webhook-receiver.js";
import { commit, endpoint, webhookAgent } from "./support.js";

describe("webhook secrets are never logged", () => {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });

  it("neither the secret nor a signature appears in the log of failures, retries and a 410, at debug", async () => {
    const r = await startReceiver();
    open.push(r);
    r.script = (got, n) =>
      got.seq === 3 ? { status: 410 } : n % 2 === 0 ? { status: 500 } : { status: 204 };
    const lines = new LogLines();
    const t = await webhookAgent([endpoint("central", r.url)], {}, { url: "off" }, lines);
    open.push(t);
    commit(t, 3);
    await r.waitFor(2);
    const until = Date.now() + deadline(5000);
    while (!lines.text().includes("endpoint disabled") && Date.now() < until)
      await new Promise((ok) => setTimeout(ok, 20));
    const log = lines.text();
    expect(log).toContain("webhook: attempt failed; retrying");
    expect(log).toContain("webhook: endpoint disabled (answered 410 Gone)");
    const key = TEST_SECRET.slice("whsec_".length);
    expect(log).not.toContain(key);
    for (const q of r.requests) expect(log).not.toContain(String(q.headers["webhook-signature"]).slice(3));
  });

  it("the configuration as diag writes it has the endpoint's secret redacted", () => {
    const redacted = JSON.stringify(
      redactSecrets({ webhooks: { endpoints: [{ id: "a", secret: TEST_SECRET }] } }),
    );
    expect(redacted).not.toContain(TEST_SECRET);
    expect(redacted).toContain('"secret":"[redacted]"');
  });
});
