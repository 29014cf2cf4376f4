/**
 * The operator screen in a real browser (chromium via playwright-core), pick mode: a whole pick from
 * the screen, each pick exception button, a refused scan and its reason, a scan-required item, logout.
 * Elements are found by role and accessible name; each step's screenshot is in test-results/screen/.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { ok, SR } from "../../support/station.js";
import { type ScreenRig, seedPick, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;

const IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/%3E";
const heading = () => page.getByRole("heading", { level: 1 });
const last = () => page.getByRole("region", { name: "Last" });
const bin = (id: string): Locator => page.getByRole("group", { name: `Bin ${id}` });
const button = (name: string) => page.getByRole("button", { name, exact: true });

async function text(l: Locator, want: string | RegExp) {
  await expect.poll(() => l.innerText(), { timeout: deadline(5000) }).toMatch(want);
}
async function attr(l: Locator, name: string, want: string) {
  await expect.poll(() => l.getAttribute(name), { timeout: deadline(5000) }).toBe(want);
}
/** Reports a problem as the operator does: Problem, the kind, its quantity (1) on the numpad, yes, done. */
async function problem(kind: string) {
  await button("Problem").click();
  await page
    .getByRole("dialog", { name: "What is the problem?" })
    .getByRole("button", { name: kind })
    .click();
  const pad = page.locator("#numpad");
  await expect.poll(() => pad.isVisible()).toBe(true);
  await button("Clear").click();
  await button("1").click();
  await button("OK").click();
  const confirm = page.getByRole("dialog", { name: /^Report .*: 1\?$/ });
  await confirm.waitFor();
  await confirm.getByRole("button", { name: "Yes, report it" }).click();
  await page
    .getByRole("dialog", { name: "Where the unit goes" })
    .getByRole("button", { name: "Done" })
    .click();
}

async function requestState(id: string) {
  return (await ok(rig.t.call("GET", `${SR}/${id}?type=PICK`))).state as string;
}

beforeAll(async () => {
  rig = await startScreenRig("pick");
  page = await rig.open("front");
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: pick", { timeout: deadline(60_000) }, () => {
  it("a whole pick: rack → the screen shows slot, SKU, quantity, bin → scan → bin lit → confirm → complete", async () => {
    await text(heading(), "Log in: scan your badge");
    await rig.shot(page, "login-prompt");
    await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
    await button("Log in").click();
    await text(page.locator("#operator"), "Operator: alice");
    await text(heading(), "No work");

    await seedPick(rig.t, {
      sku: "TSHIRT",
      order: "ORDER-1",
      qty: 2,
      item: { description: "T-shirt, blue, M", imageUrl: IMAGE },
    });
    await text(heading(), "Waiting for a rack");
    await rig.shot(page, "waiting-for-rack");
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S1"] }));
    await text(heading(), "Scan an item from slot S1");
    const row = page.getByRole("table", { name: "Task" }).getByRole("row").nth(1);
    await text(row, /S1\s+TSHIRT\s+T-shirt, blue, M\s+2\s+1/);
    await expect.poll(() => row.getByRole("img", { name: "Image of TSHIRT" }).count()).toBe(1);
    await rig.shot(page, "rack-presented");

    await rig.scan("BC-TSHIRT");
    await text(heading(), "Put 2 × TSHIRT into bin 1 and press its button");
    await attr(bin("1"), "data-light", "green");
    await text(bin("1"), /^1\s+2\s/);
    expect((await rig.lights()).filter((l) => l.mode === "show")).toEqual([
      expect.objectContaining({ ppsBinId: "1", color: "green", quantity: 2 }),
    ]);
    await text(last(), /BC-TSHIRT\s+Bin lit/);
    await rig.shot(page, "bin-lit");

    await button("Confirm").click();
    await text(heading(), "Take bin 1 away and press its button");
    await attr(bin("1"), "data-blink", "true");
    await attr(last(), "data-tone", "complete");
    await expect.poll(() => page.locator("body").getAttribute("data-last-tone")).toBe("complete");
    expect(await requestState("ORDER-1")).toBe("complete");
    await rig.shot(page, "picked-complete");

    await button("Empty bin 1").click();
    await attr(bin("1"), "data-light", "off");
    await text(heading(), "No work");
    await rig.shot(page, "bin-emptied");
  });

  it("a refused scan shows its reason in words, in the refused colour and tone", async () => {
    await rig.scan("NOPE-123");
    await text(last(), /NOPE-123\s+This barcode is not known here/);
    await attr(last(), "data-tone", "refused");
    await expect.poll(() => page.locator("body").getAttribute("data-last-tone")).toBe("refused");
    await rig.shot(page, "refused-scan");
  });

  it("each pick exception takes a confirmation: missing and damaged with their quantity, unscannable written off once said so", async () => {
    // [button, then the steps that report it]
    const report: Array<[string, () => Promise<void>]> = [
      ["Slot empty", () => problem("Slot empty")],
      ["Damaged", () => problem("Damaged")],
      [
        "Unscannable",
        async () => {
          // what identifies the unit instead first (paths.browser.test.ts), then the write-off, said as such
          await button("Unscannable").click();
          await page.getByRole("dialog", { name: "The barcode cannot be read" }).waitFor();
          await button("Write off").click();
          const ask = page.getByRole("dialog", {
            name: "The unit is written off; EXC-3 will end 1 short. Write it off?",
          });
          await ask.waitFor();
          await rig.shot(page, "exception-unscannable-confirm");
          await ask.getByRole("button", { name: "Yes, write off" }).click();
        },
      ],
    ];
    for (const [i, [name, steps]] of report.entries()) {
      const order = `EXC-${i + 1}`;
      await seedPick(rig.t, { sku: `B${i}`, order, qty: 1, slot: `S${i + 2}` });
      await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: [`S${i + 2}`] }));
      await rig.scan(`BC-B${i}`);
      await text(heading(), new RegExp(`Put 1 × B${i} into bin`));
      // no one-tap button abandons units: missing and damaged are in the problem report
      expect(await button("Missing").count()).toBe(0);
      await rig.shot(page, `exception-${name.toLowerCase().replace(/ /g, "-")}-offered`);
      await steps();
      await text(last(), /Exception recorded/);
      expect(await requestState(order)).toBe("abandoned");
      const bins = (await ok(rig.t.call("GET", "/station/state"))).bins as Array<{
        ppsBinId: string;
        state: string;
      }>;
      const full = bins.find((b) => b.state === "complete");
      if (full) await button(`Empty bin ${full.ppsBinId}`).click();
      await text(heading(), /No work/);
    }
  });

  it("a scan-required item: no confirm, no key-in; each scan counts and the last one picks", async () => {
    await seedPick(rig.t, {
      sku: "SERIAL",
      order: "ORDER-SR",
      qty: 3,
      slot: "S9",
      item: {
        productAttributes: { product_sku: "SERIAL", scan_required: true },
        description: "scanner, serialised",
      },
    });
    await ok(rig.t.call("POST", "/station/racks", { msu: "M1", locations: ["S9"] }));
    await text(page.getByRole("table", { name: "Task" }), /SERIAL\s*scan each/);
    await rig.scan("BC-SERIAL");
    await text(heading(), /Scan each unit of SERIAL into bin \d: 1 of 3 scanned/);
    // the card: 2 still to put, 1 of the line's 3 scanned
    const card = page.getByRole("group", { name: "Now" });
    await text(card.locator(".scanned"), "1 of 3 scanned");
    expect(await card.locator(".card-qty").innerText()).toBe("2");
    expect(await button("Confirm").count()).toBe(0);
    expect(await button("Key in quantity").count()).toBe(0);
    const refused = await rig.t.call("POST", "/station/seats/front/keyin", { quantity: 3 });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { details: { reason: string } }).details.reason).toBe("scan_each_unit");
    await text(last(), /Scan every unit of this item, one by one/);
    await rig.shot(page, "scan-each-1-of-3");
    await rig.scan("BC-SERIAL");
    await text(heading(), /2 of 3 scanned/);
    await text(card.locator(".scanned"), "2 of 3 scanned");
    await rig.scan("BC-SERIAL");
    await text(last(), /BC-SERIAL\s+Picked/);
    expect(await requestState("ORDER-SR")).toBe("complete");
    await rig.shot(page, "scan-each-picked");
  });

  it("logout: the login prompt returns, with the operator offered as a login button", async () => {
    const bins = (await ok(rig.t.call("GET", "/station/state"))).bins as Array<{
      ppsBinId: string;
      state: string;
    }>;
    for (const b of bins.filter((x) => x.state === "complete"))
      await button(`Empty bin ${b.ppsBinId}`).click();
    await button("Log out").click();
    await text(heading(), "Log in: scan your badge");
    await text(page.locator("#operator"), "nobody logged in");
    await expect.poll(() => button("Log in as alice").count()).toBe(1);
    await rig.shot(page, "logged-out");
    rig.later(); // the same badge again within the debounce window would be taken as a double delivery
    await button("Log in as alice").click();
    await text(page.locator("#operator"), "Operator: alice");
  });

  it("on a 1920×1080 screen the instruction, the task, the bins and the buttons fit and read from a metre", async () => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    try {
      await text(heading(), "No work");
      const inView = async (l: Locator) => {
        const box = await l.boundingBox();
        expect(box).not.toBeNull();
        if (!box) return;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(1920);
        expect(box.y + box.height).toBeLessThanOrEqual(1080);
      };
      for (const l of [heading(), last(), bin("1"), bin("8"), button("Log out")]) await inView(l);
      // the instruction is the largest text on the page: at least 40 px tall at this size
      type Styles = { getComputedStyle(e: unknown): { fontSize: string } };
      const size = await heading().evaluate((h) =>
        Number.parseFloat((globalThis as unknown as Styles).getComputedStyle(h).fontSize),
      );
      expect(size).toBeGreaterThanOrEqual(40);
      // nothing scrolls sideways
      expect(Number(await page.evaluate("document.documentElement.scrollWidth"))).toBeLessThanOrEqual(1920);
      await rig.shot(page, "full-hd");
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
