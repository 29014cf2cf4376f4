/**
 * The shift lead's figures and the idle warning on the operator screen, in Debian's chromium
 * (docs/station.md#productivity-and-the-shift, docs/station.md#idle-logout): the productivity row in the
 * header against the targets, in words, and the idle warning with its countdown, then who was signed
 * out; at 1024×768 and 1920×1080 the page does not scroll and every control keeps its size and room;
 * axe-core finds no serious or critical violation in any state visited.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { ok } from "../../support/station.js";
import { atEverySize, expectAccessible, expectLayout, PANEL_EXTREMES } from "./support/checks.js";
import { type ScreenRig, seedPick, startScreenRig } from "./support/screen-rig.js";

const MIN = 60_000;

let rig: ScreenRig;
let page: Page;

const heading = () => page.getByRole("heading", { level: 1 });
const button = (name: string) => page.getByRole("button", { name, exact: true });
const figures = () => page.getByRole("region", { name: "Productivity" });
async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}

/** The layout and axe-core at both sizes, a screenshot of each. */
async function atBothSizes(where: string, shot: string) {
  await atEverySize(
    page,
    async (size) => {
      await expectLayout(page, `${where} at ${size.width}`);
      await expectAccessible(page, `${where} at ${size.width}`);
      await rig.shot(page, `${shot}-${size.width}`);
    },
    PANEL_EXTREMES,
  );
}

beforeAll(async () => {
  rig = await startScreenRig("shift", {
    station: {
      // longer than the 5 minutes the first test moves the clock: nobody is signed out there
      idleLogoutMs: 10 * MIN,
      idleWarningMs: 30_000,
      productivity: { linesPerHour: 30, unitsPerHour: 20 },
    },
  });
  await seedPick(rig.t, { sku: "A", order: "P1", qty: 2 });
  await seedPick(rig.t, { sku: "B", order: "P2", qty: 1 });
  await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
  page = await rig.open("front");
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: the shift", { timeout: deadline(120_000) }, () => {
  it("shows lines and units an hour against the targets, in words", async () => {
    await text(heading(), "Log in: scan your badge");
    expect(await figures().count()).toBe(0);
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
    await button("Log in").click();
    await text(figures(), /Last 15 min:\s*after the first minute/);
    await rig.scan("BC-A");
    await button("Confirm").click();
    await text(heading(), /^Scan an item from slot S1$/);
    // 5 minutes on: 1 line and 2 units, 12 lines and 24 units an hour; the figures follow the clock
    rig.t.clock.now += 5 * MIN;
    await text(figures(), /12 lines\/h\s*below target/);
    await text(figures(), /24 units\/h\s*above target/);
    await text(figures(), /Session:\s*12 lines\/h\s*24 units\/h/);
    await atBothSizes("the productivity figures", "productivity");
  });

  it("warns with a countdown while work is in hand, then signs out and keeps the lit line", async () => {
    await rig.scan("BC-B");
    await text(heading(), /^Put 1 × B into bin \d/);
    rig.t.clock.now += 10 * MIN;
    const warning = page.getByRole("alert").filter({ hasText: "you will be signed out" });
    await text(warning, /signed out in 30 s/);
    rig.t.clock.now += 10_000;
    await text(warning, /signed out in 20 s/);
    await atBothSizes("the idle warning", "idle-warning");
    rig.t.clock.now += 20_000;
    await text(heading(), "Log in: scan your badge");
    await text(
      page.getByRole("alert").filter({ hasText: "signed out after idling" }),
      /^alice was signed out/,
    );
    expect(await figures().count()).toBe(0);
    // the lit line's bin still shows its quantity (the first order's bin shows it is complete)
    const lit = (await rig.lights()).filter((l) => l.quantity !== undefined);
    expect(lit.map((l) => l.quantity)).toEqual([1]);
    await atBothSizes("signed out for idling", "idle-signed-out");
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("bob");
    await button("Log in").click();
    await text(heading(), /^Put 1 × B into bin \d/);
    await button("Confirm").click();
    await text(heading(), /^(No work|Take bin \d away)/);
  });
});
