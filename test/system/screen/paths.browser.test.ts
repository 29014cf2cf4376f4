/**
 * The shift's paths besides the happy line (docs/station.md#paths-of-a-shift), in a real browser at
 * 1024×768 and 1920×1080 with axe-core: help from any state, the unscannable path, the put card.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { ok } from "../../support/station.js";
import { expectAccessible, expectLayout } from "./support/checks.js";
import { type ScreenRig, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;

const SIZES = [
  { width: 1024, height: 768 },
  { width: 1920, height: 1080 },
] as const;
const heading = () => page.getByRole("heading", { level: 1 });
const button = (name: string) => page.getByRole("button", { name, exact: true });

export async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}

/** The layout rules and axe-core at both sizes, a screenshot at each. */
async function atBothSizes(where: string, shot: string) {
  try {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
      await expectLayout(page, where);
      await expectAccessible(page, `${where} at ${size.width}×${size.height}`);
      await rig.shot(page, `${shot}-${size.width}`);
    }
  } finally {
    await page.setViewportSize({ width: 1280, height: 800 });
  }
}

beforeAll(async () => {
  rig = await startScreenRig("paths");
  rig.browser.context.setDefaultTimeout(deadline(5000));
  page = await rig.open("front");
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: the shift's paths", { timeout: deadline(90_000) }, () => {
  it("help is a header button in any state, even before a login, asked once more", async () => {
    await text(heading(), "Log in: scan your badge");
    const help = page.getByRole("banner").getByRole("button", { name: "Help" });
    await help.click();
    const ask = page.getByRole("dialog", { name: "Call a supervisor to seat front?" });
    await ask.waitFor();
    await atBothSizes("the help question", "help-asked");
    const posted = page.waitForRequest((r) => r.url().endsWith("/screen/actions") && r.method() === "POST");
    await ask.getByRole("button", { name: "Yes, call a supervisor" }).click();
    expect((await posted).postDataJSON()).toMatchObject({ type: "supervisor" });
    await text(page.getByRole("region", { name: "Last" }), /A supervisor was called/);
    await ask.waitFor({ state: "hidden" });
    await atBothSizes("help called", "help-called");
    // logged in too
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
    await button("Log in").click();
    await text(page.locator("#operator"), "Operator: alice");
    await help.click();
    await ask.getByRole("button", { name: "Back" }).click();
    await ask.waitFor({ state: "hidden" });
    expect((await ok(rig.t.call("GET", "/station/seats/front/screen"))).lastEvent.did).toBe("logged_in");
  });
});
