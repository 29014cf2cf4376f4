/**
 * The agent restarts under an open operator screen: the page shows the "connection lost" banner within
 * 2 s, then recovers by itself once the agent is back (same page, no reload), with the state the new
 * agent derives (pending work is held in memory only, so the seat is ready again).
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import pino from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { type Agent, createAgent } from "../../../src/app/agent.js";
import { parseConfig } from "../../../src/config/config.load.js";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import { ADMIN, ADMIN_PASSWORD, CLIENT_ID, CLIENT_SECRET, tempDir } from "../../support/agent.js";
import { openBrowser, type ScreenBrowser, shooter } from "../../support/browser.js";
import { deadline } from "../../support/deadline.js";

const dir = tempDir();
const config = (port: number) =>
  parseConfig({
    dataDir: dir,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    adminUser: ADMIN,
    adminPassword: ADMIN_PASSWORD,
    http: { host: "127.0.0.1", port },
    log: { level: "silent" },
    mqtt: { url: "off" },
  });
const start = async (port: number) => {
  const a = createAgent(config(port), { log: pino({ level: "silent" }) });
  await a.start();
  return a;
};

let agent: Agent | undefined;
let browser: ScreenBrowser | undefined;
afterAll(async () => {
  await browser?.close();
  await agent?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("operator screen: the agent restarts under the open page", { timeout: deadline(60_000) }, () => {
  it("a banner once the agent is gone, then recovery without a reload", async () => {
    agent = await start(0);
    const port = agent.address?.port ?? 0;
    const base = `http://127.0.0.1:${port}`;
    const key = (JSON.parse(readFileSync(join(dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>)
      .front;
    browser = await openBrowser();
    const shot = shooter("restart");
    const page = await browser.page(`${base}/screen/front?key=${key}`);
    await page.locator("body[data-connection=live]").waitFor();
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("carol");
    await page.getByRole("button", { name: "Log in", exact: true }).click();
    await expect.poll(() => page.locator("#operator").innerText()).toBe("Operator: carol");
    await page.evaluate("window.samePage = 'yes'");
    const banner = page.getByRole("alert");
    expect(await banner.isVisible()).toBe(false);

    await agent.stop();
    agent = undefined;
    // the page shows it as soon as its stream breaks; the deadline only catches one that never comes
    await banner.waitFor({ state: "visible", timeout: deadline(2000) });
    expect(await banner.innerText()).toBe("Connection to the station lost: reconnecting…");
    await shot(page, "connection-lost");

    agent = await start(port);
    await banner.waitFor({ state: "hidden", timeout: deadline(10_000) });
    await expect.poll(() => page.locator("body").getAttribute("data-connection")).toBe("live");
    // the login is station truth (SQLite): the operator is still there after the restart
    await expect.poll(() => page.locator("#operator").innerText()).toBe("Operator: carol");
    expect(await page.evaluate("window.samePage")).toBe("yes");
    await shot(page, "recovered");
  });
});
