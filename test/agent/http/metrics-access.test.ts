/**
 * `/metrics` needs the scrape credential unless `metrics.open` says otherwise: 401 with
 * `WWW-Authenticate` without it, with a wrong one or with an API user's token; 200 with it. A station
 * with no `metrics.token` configured gets one on its first start, in `initial-credentials.json` beside
 * what an earlier start wrote there.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createAgent } from "../../../src/app/agent.js";
import { CREDENTIALS_FILE } from "../../../src/services/auth/auth.service.js";
import {
  METRICS_TOKEN,
  SCRAPE,
  startTestAgent,
  type TestAgent,
  tempDir,
  testConfig,
} from "../../support/agent.js";
import { LogLines } from "../../support/log-lines.js";

let t: TestAgent | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const bearer = (token: string) => ({ headers: { Authorization: `Bearer ${token}` } });

describe("/metrics and its scrape credential", () => {
  it("is 401 unauthorized without the token, with a wrong one and with an API token; 200 with it", async () => {
    t = await startTestAgent();
    const refused = [
      await t.request("/metrics"),
      await t.request("/metrics", bearer(`${METRICS_TOKEN}x`)),
      await t.request("/metrics", bearer(await t.token())),
      await t.request("/metrics", { headers: { Authorization: `Basic ${btoa(`x:${METRICS_TOKEN}`)}` } }),
    ];
    for (const res of refused) {
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="pps-edge"/);
      expect(((await res.json()) as { code: string }).code).toBe("unauthorized");
    }
    const ok = await t.request("/metrics", SCRAPE);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toMatch(/^pps_edge_build_info\{/m);
    // the rest of the ops routes stay open
    expect((await t.request("/healthz")).status).toBe(200);
    expect((await t.request("/openapi.json")).status).toBe(200);
  });

  it("is open to anyone when metrics.open is set, with a warning at start", async () => {
    const lines = new LogLines();
    t = await startTestAgent({ metrics: { open: true }, log: { level: "warn" } }, { logTo: lines });
    expect((await t.request("/metrics")).status).toBe(200);
    expect(lines.text()).toContain("/metrics is open to anyone who reaches the HTTP port (metrics.open)");
  });

  it("generates a token on the first start, kept beside what an earlier start wrote in the file", async () => {
    const dir = tempDir();
    const file = join(dir, CREDENTIALS_FILE);
    // a station from before the scrape credential: its first start's file is still there
    writeFileSync(file, `${JSON.stringify({ adminUser: "admin", adminPassword: "kept-from-before" })}\n`);
    const config = testConfig(dir, { metrics: { open: false } });
    const agent = createAgent(config, { log: pino({ level: "silent" }) });
    await agent.start(false);
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
    expect(saved.adminPassword).toBe("kept-from-before");
    expect(saved.metricsToken?.length).toBeGreaterThanOrEqual(24);
    expect((await agent.app.request("/metrics", bearer(saved.metricsToken as string))).status).toBe(200);
    expect((await agent.app.request("/metrics", SCRAPE)).status).toBe(401);
    await agent.stop();
  });
});
