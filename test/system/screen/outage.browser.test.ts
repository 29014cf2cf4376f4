/**
 * The agent hangs under an open operator screen (its process stopped with SIGSTOP, as a stalled machine
 * would): once the heartbeat is missed every control is disabled and the header says the connection is
 * lost; a tap then does nothing. After SIGCONT the page is live again and nothing was carried out. The
 * agent is a child process here: a stopped in-process agent would stop the test too.
 */
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import { tempDir } from "../../support/agent.js";
import { openBrowser, type ScreenBrowser, shooter } from "../../support/browser.js";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { deadline } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import { ITEM, ok, pickBody, pickLine, SR } from "../../support/station.js";
import { blinkContrast, expectAccessible, expectLayout } from "./support/checks.js";

const dir = tempDir();
let agent: ChildAgent;
let browser: ScreenBrowser;
let page: Page;
const shot = shooter("outage");

const heading = () => page.getByRole("heading", { level: 1 });
const button = (name: string) => page.getByRole("button", { name, exact: true });
async function text(l: Locator, want: string | RegExp, timeout = 5000) {
  await expect.poll(() => l.innerText(), { timeout }).toMatch(want);
}
/** The controls of the page that can be tapped now, and all of them. */
const CONTROLS = `(() => {
  const all = [...document.querySelectorAll("header button, main button, main input")].filter((el) => el.offsetParent !== null);
  return { all: all.length, enabled: all.filter((el) => !el.disabled).map((el) => el.textContent || el.id) };
})()`;

beforeAll(async () => {
  agent = await startChildAgent(dir);
  const keys = JSON.parse(readFileSync(join(dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
  browser = await openBrowser();
  page = await browser.page(`${agent.base}/screen/front?key=${keys.front}`);
  await page.locator("body[data-connection=live]").waitFor();
}, deadline(60_000));
afterAll(async () => {
  if (agent?.proc.exitCode === null) agent.proc.kill("SIGCONT");
  await browser?.close();
  await agent?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("operator screen: the agent hangs", { timeout: deadline(60_000) }, () => {
  it("every control is disabled and the header says so; a tap during the outage is not carried out", async () => {
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("dora");
    await button("Log in").click();
    await text(heading(), "No work");
    await ok(agent.call("POST", ITEM, itemBody("HANG")));
    await ok(
      agent.call("PUT", "/station/stock", { location: "S1", msu: "M1", product_sku: "HANG", quantity: 5 }),
    );
    await ok(agent.call("POST", SR, pickBody("HANG-1", [pickLine("HANG-1-1", "HANG", 2)])));
    await ok(agent.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
    await text(heading(), "Scan an item from slot S1");
    await ok(agent.call("POST", "/station/sim/scan", { seat: "front", barcode: "BC-HANG" }));
    await text(heading(), "Put 2 × HANG into bin 1 and press its button");
    expect(await button("Confirm").isEnabled()).toBe(true);

    agent.proc.kill("SIGSTOP");
    try {
      await page.locator("body[data-connection=lost]").waitFor({ timeout: deadline(3000) });
      await text(page.locator("#connection"), "Connection lost");
      await text(page.getByRole("alert"), "Connection to the station lost: reconnecting…");
      const controls = (await page.evaluate(CONTROLS)) as { all: number; enabled: string[] };
      expect(controls.all).toBeGreaterThan(3);
      expect(controls.enabled).toEqual([]);
      expect(await button("Confirm").isDisabled()).toBe(true);
      await expectLayout(page, "the outage");
      await expectAccessible(page, "the outage");
      await shot(page, "connection-lost");
      // the operator taps Confirm anyway: nothing is sent
      await button("Confirm").click({ force: true, timeout: deadline(2000) });
    } finally {
      agent.proc.kill("SIGCONT");
    }
    await page.locator("body[data-connection=live]").waitFor({ timeout: deadline(10_000) });
    await text(page.locator("#connection"), "Connected");
    // nothing was carried out: the bin is still lit with 2, the order still open
    await text(heading(), "Put 2 × HANG into bin 1 and press its button");
    const order = await ok(agent.call("GET", `${SR}/HANG-1?type=PICK`));
    expect(order.state).not.toBe("complete");
    await expect.poll(() => button("Confirm").isEnabled(), { timeout: deadline(5000) }).toBe(true);
    await shot(page, "recovered");
    // and the page works again
    await button("Confirm").click();
    await text(heading(), "Take bin 1 away and press its button");
    // the complete bin blinks: its text stays at 4.5:1 or more in both phases
    await expect.poll(() => page.locator(".bin[data-blink=true]").count()).toBe(1);
    for (const ratio of await blinkContrast(page, ".bin[data-blink=true]"))
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    await expectAccessible(page, "a complete bin blinking");
  });
});
