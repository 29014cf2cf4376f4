/**
 * The agent killed (SIGKILL) while a bin is lit for a seat (docs/station.md#after-a-restart): after the
 * restart the seat's screen says what was recorded of the lit line and what to do with the units that
 * were not, until the operator acknowledges it; the line is offered again. The page at the same address
 * recovers by itself. 1024×768 and 1920×1080, axe-core.
 */
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { SCREEN_KEYS_FILE } from "../../../src/services/auth/screen-sessions.js";
import { tempDir } from "../../support/agent.js";
import { openBrowser, type ScreenBrowser, shooter } from "../../support/browser.js";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { deadline } from "../../support/deadline.js";
import { itemBody } from "../../support/fixtures.js";
import { ITEM, ok, pickBody, pickLine, SR } from "../../support/station.js";
import { expectAccessible, expectLayout } from "./support/checks.js";

const dir = tempDir();
let agent: ChildAgent | undefined;
let browser: ScreenBrowser | undefined;
afterAll(async () => {
  await browser?.close();
  await agent?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A port free now, so the restarted agent listens where the open page looks for it. */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(10_000) }).toMatch(want);
}

async function atBothSizes(page: Page, where: string, shot: (p: Page, s: string) => Promise<void>) {
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1920, height: 1080 },
  ]) {
    await page.setViewportSize(size);
    await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
    await expectLayout(page, where);
    await expectAccessible(page, `${where} at ${size.width}×${size.height}`);
    await shot(page, `restart-notice-${size.width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

describe("operator screen: the agent killed while a bin is lit", { timeout: deadline(120_000) }, () => {
  it("after the restart: what was recorded, what to do with the units, until acknowledged", async () => {
    const env = { PPS_EDGE_HTTP_PORT: String(await freePort()) };
    agent = await startChildAgent(dir, env);
    const a = agent;
    await ok(a.call("POST", ITEM, itemBody("TSHIRT", { description: "T-shirt, blue, M" })));
    await ok(
      a.call("PUT", "/station/stock", { location: "S1", msu: "M1", product_sku: "TSHIRT", quantity: 10 }),
    );
    await ok(a.call("POST", SR, pickBody("ORDER-1", [pickLine("ORDER-1-1", "TSHIRT", 3)])));
    await ok(a.call("POST", "/station/seats/front/login", { user: "alice" }));
    await ok(a.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));

    const key = (JSON.parse(readFileSync(join(dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>)
      .front;
    browser = await openBrowser();
    browser.context.setDefaultTimeout(deadline(10_000));
    const shot = shooter("restart-lit");
    const page = await browser.page(`${a.base}/screen/front?key=${key}`);
    await page.locator("body[data-connection=live]").waitFor();
    const heading = page.getByRole("heading", { level: 1 });
    await text(heading, "Scan an item from slot S1");
    await ok(a.call("POST", "/station/sim/scan", { seat: "front", barcode: "BC-TSHIRT" }));
    await text(heading, /Put 3 × TSHIRT into bin (\d)/);
    const bin = /bin (\d)/.exec(await heading.innerText())?.[1] ?? "";

    await a.kill();
    agent = undefined;
    await page.getByRole("alert").filter({ hasText: "Connection to the station lost" }).waitFor();
    agent = await startChildAgent(dir, env);
    await expect
      .poll(() => page.locator("body").getAttribute("data-connection"), { timeout: deadline(20_000) })
      .toBe("live");

    const notice = page.getByRole("group", { name: "Work lit before the restart" });
    await text(
      notice,
      /The agent restarted: 0 of 3 units of ORDER-1 line ORDER-1-1 were recorded before the restart\./,
    );
    await text(
      notice,
      new RegExp(
        `3 not recorded: put each one in your hand or in bin ${bin} back into slot S1, then scan the item again\\.`,
      ),
    );
    // the line is open again: the card offers it
    await text(heading, "Scan an item from slot S1");
    await atBothSizes(page, "the restart notice", shot);

    // it stays until acknowledged, whatever else happens at the seat
    await ok(agent.call("POST", "/station/sim/scan", { seat: "front", barcode: "NOPE" }));
    expect(await notice.isVisible()).toBe(true);
    await notice.getByRole("button", { name: "Understood" }).click();
    await notice.waitFor({ state: "hidden" });
    expect((await ok(agent.call("GET", "/station/seats/front/screen"))).restart).toBeNull();
    await text(page.getByRole("region", { name: "Last" }), /Restart message read/);
  });
});
