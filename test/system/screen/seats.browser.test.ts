/**
 * Two seats of the embedded simulated station at once (docs/station.md#two-seats-one-station): a line
 * lit at `front` is not on `back`'s card or task list; `back` scanning its item is refused with why, on
 * `back`'s own screen, and no bin of `back`'s screen (nor the lit one) shows the error signal.
 * Both screens at 1024×768 and 1920×1080, axe-core with no serious finding.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { ok } from "../../support/station.js";
import { expectAccessible, expectLayout } from "./support/checks.js";
import { type ScreenRig, seedPick, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let front: Page;
let back: Page;

const SIZES = [
  { width: 1024, height: 768 },
  { width: 1920, height: 1080 },
] as const;

async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}

async function login(page: Page, user: string) {
  await page.getByRole("textbox", { name: "Badge or operator name" }).fill(user);
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await text(page.locator("#operator"), `Operator: ${user}`);
}

/** Both screens at both sizes: the layout rules and axe-core. */
async function bothAtEverySize(where: string) {
  for (const size of SIZES)
    for (const [name, page] of [
      ["front", front],
      ["back", back],
    ] as const) {
      await page.setViewportSize(size);
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
      await expectLayout(page, `${where} (${name})`);
      await expectAccessible(page, `${where} (${name}) at ${size.width}×${size.height}`);
    }
}

beforeAll(async () => {
  rig = await startScreenRig("seats");
  rig.browser.context.setDefaultTimeout(deadline(5000));
  front = await rig.open("front");
  back = await rig.browser.context.newPage();
  await back.goto(rig.kioskUrl("back"));
  await back.waitForURL(`${rig.base}/screen/back`);
  await back.locator("body[data-connection=live]").waitFor();
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: two seats at one station", { timeout: deadline(90_000) }, () => {
  it("the line front has lit is not offered at back; back's refusal is its own", async () => {
    await login(front, "alice");
    await login(back, "bob");
    await seedPick(rig.t, { sku: "SHIRT", order: "ORDER-1", qty: 2, slot: "S1" });
    await seedPick(rig.t, { sku: "SOCKS", order: "ORDER-2", qty: 1, slot: "S2" });
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S1", "S2"] }));
    await text(front.getByRole("heading", { level: 1 }), "Scan an item from slot S1");
    await text(back.getByRole("heading", { level: 1 }), "Scan an item from slot S1");

    await rig.scan("BC-SHIRT", "front");
    await text(front.getByRole("heading", { level: 1 }), /Put 2 × SHIRT into bin 1/);
    // back's card and list: only ORDER-2's line
    await text(back.getByRole("heading", { level: 1 }), "Scan an item from slot S2");
    const card = back.getByRole("group", { name: "Now" });
    await text(card, /SOCKS/);
    expect(await card.innerText()).not.toMatch(/SHIRT/);
    const rows = back.getByRole("table", { name: "Task" }).getByRole("row");
    await expect.poll(() => rows.count()).toBe(2);
    await text(rows.nth(1), /S2\s+SOCKS/);
    await rig.shot(back, "back-offered-its-own-line");
    await bothAtEverySize("a line lit at front");

    // back scans the item front has lit: refused with why, at back only
    const out = await rig.scan("BC-SHIRT", "back");
    expect(out.outcome).toMatchObject({ result: "refused", reason: "other_seat" });
    const alert = back.locator("#alert");
    await text(alert, /Another seat is working on this line/);
    await text(alert, /Take the line on your own card/);
    // no bin flashes on back's screen, the lit bin 1 least of all; the simulated lights agree
    expect(await back.locator('.bin[data-signal="error"]').count()).toBe(0);
    expect(await front.locator('.bin[data-signal="error"]').count()).toBe(0);
    expect((await rig.lights()).filter((l) => l.mode === "error")).toEqual([]);
    expect(await front.locator("#alert").isVisible()).toBe(false);
    await rig.shot(back, "back-refused-other-seat");
    await bothAtEverySize("back refused");
  });
});
