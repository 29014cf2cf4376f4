/**
 * A code can always be typed at a seat (docs/station.md#paths-of-a-shift): a seat with no simulated
 * scanner and no scanner down has "Type a code" in its action bar; the code typed is a scan at the seat.
 * 1024×768 and 1920×1080, axe-core.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../support/agent.js";
import { deadline } from "../../support/deadline.js";
import { ok } from "../../support/station.js";
import { expectAccessible, expectLayout } from "./support/checks.js";
import { type ScreenRig, startScreenRig } from "./support/screen-rig.js";

let rig: ScreenRig;
let page: Page;

beforeAll(async () => {
  const dir = tempDir();
  const file = join(dir, "station.yaml");
  writeFileSync(
    file,
    `station:
  seats: [front, side]
  bins:
    - { id: "1", light: { device: ptl, address: "1" } }
    - { id: "2", light: { device: ptl, address: "2" } }
devices:
  - { id: ptl, kind: ptl-controller, profile: sim, transport: sim }
  - { id: scan-front, kind: scanner, profile: sim, seat: front, transport: sim }
`,
  );
  rig = await startScreenRig("typed-code", { station: { file } });
  rig.browser.context.setDefaultTimeout(deadline(5000));
  page = await rig.open("side");
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: a typed code at a seat without a scanner box", {
  timeout: deadline(60_000),
}, () => {
  it("Type a code opens a code entry; the code is a scan at the seat", async () => {
    await ok(rig.t.call("POST", "/station/seats/side/login", { user: "ida" }));
    await expect.poll(() => page.locator("#operator").innerText()).toBe("Operator: ida");
    expect(await page.locator("#sim").isVisible()).toBe(false);
    await page.getByRole("button", { name: "Type a code", exact: true }).click();
    const ask = page.getByRole("dialog", { name: "Type the code from the label" });
    await ask.waitFor();
    for (const size of [
      { width: 1024, height: 768 },
      { width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize(size);
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
      await expectLayout(page, "the code entry");
      await expectAccessible(page, `the code entry at ${size.width}×${size.height}`);
      await rig.shot(page, `type-code-${size.width}`);
    }
    await ask.getByRole("textbox", { name: "Code from the label" }).fill("BADGE-ida");
    await ask.getByRole("button", { name: "Enter code" }).click();
    await ask.waitFor({ state: "hidden" });
    // the operator's own badge typed: logged out, as the scanner would have done
    await expect.poll(() => page.locator("#operator").innerText()).toBe("Operator: nobody logged in");
  });
});
