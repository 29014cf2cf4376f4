import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { createAgent } from "../../../src/app/agent.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { CREDENTIALS_FILE } from "../../../src/services/auth/auth.service.js";
import { VERSION } from "../../../src/version.js";
import { tempDir } from "../../support/agent.js";

const TOKEN = "/api-gateway/auth-service/platform-auth/oauth/token";

describe("first start with no credentials configured", () => {
  it("generates a client secret and admin password, writes them once (0600), and they work over HTTP", async () => {
    const dir = tempDir();
    const config = parseConfig({ dataDir: dir, http: { port: 0 }, log: { level: "silent" } });
    const agent = createAgent(config, { log: pino({ level: "silent" }) });
    await agent.start();
    const file = join(dir, CREDENTIALS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const creds = JSON.parse(readFileSync(file, "utf8")) as Record<string, string>;
    expect(creds.clientSecret?.length).toBeGreaterThanOrEqual(24);
    expect(creds.adminPassword?.length).toBeGreaterThanOrEqual(16);
    expect(creds.metricsToken?.length).toBeGreaterThanOrEqual(24);

    const res = await fetch(`http://127.0.0.1:${agent.address?.port}${TOKEN}`, {
      method: "POST",
      headers: {
        Authorization: creds.basicAuthorization as string,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: `grant_type=password&username=${creds.adminUser}&password=${encodeURIComponent(creds.adminPassword as string)}`,
    });
    expect(res.status).toBe(200);
    await agent.stop();

    // A second start keeps the same secrets and does not rewrite the file.
    const before = statSync(file).mtimeMs;
    const again = createAgent(config, { log: pino({ level: "silent" }) });
    await again.start(false);
    expect(statSync(file).mtimeMs).toBe(before);
    const res2 = await again.app.request(TOKEN, {
      method: "POST",
      headers: {
        Authorization: creds.basicAuthorization as string,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: `grant_type=password&username=${creds.adminUser}&password=${encodeURIComponent(creds.adminPassword as string)}`,
    });
    expect(res2.status).toBe(200);
    await again.stop();
  });

  it("uses the configured credentials and writes no file", async () => {
    const dir = tempDir();
    const config = parseConfig({
      dataDir: dir,
      clientSecret: "configured-secret-1",
      adminPassword: "configured-password-1",
      metrics: { token: "configured-scrape-token-1" },
      log: { level: "silent" },
    });
    const agent = createAgent(config, { log: pino({ level: "silent" }) });
    await agent.start(false);
    expect(() => statSync(join(dir, CREDENTIALS_FILE))).toThrow();
    await agent.stop();
  });
});

describe("version", () => {
  it("matches package.json", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    expect(VERSION).toBe(pkg.version);
  });
});
