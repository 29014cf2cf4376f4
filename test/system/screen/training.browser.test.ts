/**
 * A seat in training in a real browser (docs/station.md#training): the TRAINING banner shows on the login,
 * the pick and the put, at 1024×768 and 1920×1080, inside the window, black on yellow at 4.5:1 or better,
 * with the page's layout rules holding and axe-core finding nothing serious. The seat's own scanner (here
 * the simulated one of the station) scans into the training station. The station's other seat shows no
 * banner, and the seat's open page drops the banner when the seat leaves training.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { ok } from "../../support/station.js";
import {
  atEverySize,
  blinkContrast,
  expectAccessible,
  expectLayout,
  PANEL_EXTREMES,
} from "./support/checks.js";
import { type ScreenRig, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;

const heading = () => page.getByRole("heading", { level: 1 });
const button = (name: string) => page.getByRole("button", { name, exact: true });
const banner = (p: Page = page) => p.getByRole("status").filter({ hasText: /^TRAINING/ });
async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}

/** At both sizes: the banner shown in the window, its contrast, the layout rules and axe-core. */
async function bannerEverywhere(where: string): Promise<void> {
  await atEverySize(
    page,
    async (size) => {
      await expect.poll(() => banner().isVisible(), { timeout: deadline(5000) }).toBe(true);
      expect(await banner().innerText()).toBe("TRAINING: practice only, nothing here is real");
      const box = await banner().boundingBox();
      expect(box, `${where}: the banner's box`).not.toBeNull();
      expect(box?.y ?? -1).toBeGreaterThanOrEqual(0);
      expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(size.height);
      expect(box?.width ?? 0, `${where}: the banner spans the screen`).toBeGreaterThan(size.width * 0.9);
      for (const c of await blinkContrast(page, "#training")) expect(c).toBeGreaterThanOrEqual(4.5);
      expect(await page.evaluate("document.body.dataset.training")).toBe("true");
      await expectLayout(page, `${where} in training`);
      await expectAccessible(page, `${where} in training at ${size.width}×${size.height}`);
      await rig.shot(page, `${where}-${size.width}x${size.height}`);
    },
    PANEL_EXTREMES,
  );
}

beforeAll(async () => {
  rig = await startScreenRig("training", { station: { trainingSeats: ["front"] } });
  page = await rig.open("front");
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: a seat in training", { timeout: deadline(120_000) }, () => {
  it("shows the TRAINING banner on the login, the pick and the put", async () => {
    await text(heading(), "Log in: scan your badge");
    await bannerEverywhere("login");

    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("trainee");
    await button("Log in").click();
    await text(heading(), "Scan an item from slot TRAIN-S1");
    await bannerEverywhere("pick");
    // the seat's own scanner scans into the training station
    await rig.scan("TRAIN-100");
    await text(heading(), /TRAIN-SHIRT/);
    await expect.poll(() => button("Confirm").count()).toBe(1);
    await bannerEverywhere("pick-confirm");
    await button("Confirm").click();
    await text(page.getByRole("region", { name: "Last" }), /Picked/);

    // start over in put mode: the open page follows, still in training
    await ok(rig.t.call("POST", "/station/training/reset", { mode: "put" }));
    await text(heading(), "Log in: scan your badge");
    await text(page.locator("#mode"), "Put");
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("trainee");
    await button("Log in").click();
    await text(heading(), "Scan the tote");
    await rig.scan("TRAIN-TOTE-1");
    await text(heading(), "Scan an item from tote TRAIN-TOTE-1");
    await rig.scan("TRAIN-100");
    await text(heading(), "Scan the slot for 1 × TRAIN-SHIRT");
    await bannerEverywhere("put");
  });

  it("the other seat shows no banner, and the seat's page drops it when the seat leaves training", async () => {
    const back = await rig.browser.context.newPage();
    await back.goto(rig.kioskUrl("back"));
    await back.locator("body[data-connection=live]").waitFor();
    await back.getByRole("heading", { level: 1 }).waitFor();
    expect(await banner(back).count()).toBe(0);
    expect(await back.locator("#training").isHidden()).toBe(true);

    await ok(rig.t.call("PUT", "/station/seats/front/training", { training: false }));
    await expect.poll(() => page.locator("#training").isHidden(), { timeout: deadline(5000) }).toBe(true);
    expect(await page.evaluate("document.body.dataset.training ?? null")).toBeNull();
    await text(heading(), "Log in: scan your badge");
    await text(page.locator("#mode"), "Pick");
    await back.close();
  });
});
