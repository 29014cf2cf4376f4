/**
 * The supervisor at the seat and undo, in chromium at 1024×768 and 1920×1080 (docs/station.md#supervisor-at-the-seat,
 * docs/station.md#undo): from the station box's key session, "Switch to Put" is marked as a supervisor's;
 * tapping it opens the supervisor's prompt (never a 403); a wrong PIN is said in the prompt and changes
 * nothing; the right PIN switches the mode once. The last scan is taken back with one tap, with its light.
 * Every state visited keeps the layout rules and axe-core reports nothing serious.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { ok } from "../../support/station.js";
import { expectAccessible, expectLayout } from "./support/checks.js";
import { type ScreenRig, seedPick, startScreenRig } from "./support/screen-rig.js";

const PIN = "482915";
let rig: ScreenRig;
let page: Page;
const forbidden: string[] = [];

const heading = () => page.getByRole("heading", { level: 1 });
const mode = async () => ((await ok(rig.t.call("GET", "/station/state"))) as { mode: string }).mode;

beforeAll(async () => {
  rig = await startScreenRig("supervisor");
  await rig.t.agent.services.auth.addUser("sam", "sam-password-1234", "admin");
  await rig.t.agent.services.auth.setSupervisorPin("sam", PIN);
  page = await rig.open();
  // a 403 of a tap without a supervisor's credential: a button the page should have asked about (a wrong
  // PIN's 403 is the prompt's answer, said in it)
  page.on("response", (r) => {
    if (r.status() === 403 && !(r.request().postData() ?? "").includes('"supervisor":{'))
      forbidden.push(`${r.url()} ${r.request().postData()}`);
  });
  await page.getByRole("textbox", { name: "Badge or operator name" }).fill("alice");
  await page.getByRole("button", { name: "Log in", exact: true }).click();
  await heading().getByText("No work", { exact: true }).waitFor();
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: a supervisor at the seat", { timeout: deadline(90_000) }, () => {
  for (const size of [
    { width: 1024, height: 768 },
    { width: 1920, height: 1080 },
  ]) {
    it(`the mode switch asks for a supervisor's PIN, refuses a wrong one, takes the right one (${size.width}×${size.height})`, async () => {
      await page.setViewportSize(size);
      const before = await mode();
      const to = before === "pick" ? "Put" : "Pick";
      const switchButton = page.getByRole("button", { name: `Switch to ${to} Supervisor` });
      await switchButton.click();
      const dialog = page.getByRole("dialog", { name: `Supervisor: Switch to ${to}` });
      await dialog.waitFor();
      await expectLayout(page, `the supervisor's prompt`);
      await expectAccessible(page, `the supervisor's prompt at ${size.width}×${size.height}`);
      await rig.shot(page, `prompt-${size.width}`);
      for (const d of "111112") await dialog.getByRole("button", { name: d, exact: true }).click();
      await dialog.getByRole("button", { name: "Authorise" }).click();
      await expect
        .poll(() => dialog.getByRole("alert").innerText())
        .toBe("Not a supervisor's badge or PIN, or not theirs to authorise");
      await expectAccessible(page, `the refused PIN at ${size.width}×${size.height}`);
      await rig.shot(page, `refused-${size.width}`);
      expect(await mode()).toBe(before);
      for (const d of PIN) await dialog.getByRole("button", { name: d, exact: true }).click();
      await dialog.getByRole("button", { name: "Authorise" }).click();
      await dialog.waitFor({ state: "hidden" });
      await expect.poll(mode).toBe(to.toLowerCase());
    });
  }

  for (const size of [
    { width: 1024, height: 768 },
    { width: 1920, height: 1080 },
  ]) {
    it(`undo takes the last scan back with its light (${size.width}×${size.height})`, async () => {
      await page.setViewportSize(size);
      if ((await mode()) !== "pick") {
        await page.getByRole("button", { name: "Switch to Pick Supervisor" }).click();
        const dialog = page.getByRole("dialog", { name: "Supervisor: Switch to Pick" });
        for (const d of PIN) await dialog.getByRole("button", { name: d, exact: true }).click();
        await dialog.getByRole("button", { name: "Authorise" }).click();
        await expect.poll(mode).toBe("pick");
      }
      const sku = `UNDO${size.width}`;
      await seedPick(rig.t, {
        sku,
        order: `O-${sku}`,
        qty: 1,
        slot: `S${size.width}`,
        msu: `M${size.width}`,
      });
      await rig.scan(`M${size.width}`);
      await rig.scan(`BC-${sku}`);
      await expect.poll(() => heading().innerText()).toMatch(/^Put 1 × UNDO/);
      const undo = page.getByRole("button", { name: "Undo last scan" });
      await undo.waitFor();
      await expectLayout(page, "a lit pick with undo");
      await expectAccessible(page, `a lit pick with undo at ${size.width}×${size.height}`);
      await undo.click();
      await expect.poll(() => heading().innerText()).toMatch(/^Scan an item from slot/);
      expect((await rig.lights()).filter((l) => l.mode !== "off")).toEqual([]);
      await expectAccessible(page, `after undo at ${size.width}×${size.height}`);
      await rig.shot(page, `undone-${size.width}`);
      // done with this order: scan, confirm, empty, so the next size starts clean
      await rig.scan(`BC-${sku}`);
      await page.getByRole("button", { name: "Confirm", exact: true }).click();
      await page.getByRole("button", { name: /^Empty bin/ }).click();
      await expect.poll(() => heading().innerText()).toBe("No work");
    });
  }

  it("no shown button answered 403", () => {
    expect(forbidden).toEqual([]);
  });
});
