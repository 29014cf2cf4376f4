/**
 * Training entered, started over and left from the seat's own screen in chromium
 * (docs/station.md#training), at 1024×768 and 1920×1080: from the station box's key session, with nobody
 * logged in, "Start training" is marked as a supervisor's; tapping it opens the supervisor's prompt (never
 * a 403); the supervisor's PIN puts the seat in training (the banner shows), "Start training over" and
 * "Leave training" ask for the PIN the same way, and the seat is the station's again. Every state visited
 * keeps the layout rules and axe-core reports nothing serious.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../support/deadline.js";
import { atEverySize, expectAccessible, expectLayout, PANEL_EXTREMES } from "./support/checks.js";
import { type ScreenRig, startScreenRig } from "./support/screen-rig.js";

const PIN = "482915";
let rig: ScreenRig;
let page: Page;
const forbidden: string[] = [];

const heading = () => page.getByRole("heading", { level: 1 });
const banner = () => page.getByRole("status").filter({ hasText: /^TRAINING/ });
const inTraining = () => rig.t.agent.training.view().seats.includes("front");

/** A supervisor's tap: the marked button, the prompt checked where it is, the PIN typed, the prompt gone. */
async function supervisorTaps(label: string, where: string): Promise<void> {
  await page.getByRole("button", { name: `${label} Supervisor`, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Supervisor: ${label}` });
  await dialog.waitFor();
  await expectLayout(page, `the supervisor's prompt for ${label}`);
  await expectAccessible(page, `the supervisor's prompt for ${label} ${where}`);
  for (const d of PIN) await dialog.getByRole("button", { name: d, exact: true }).click();
  await dialog.getByRole("button", { name: "Authorise" }).click();
  await dialog.waitFor({ state: "hidden" });
}

beforeAll(async () => {
  rig = await startScreenRig("training-taps");
  await rig.t.agent.services.auth.addUser("sam", "sam-password-1234", "admin");
  await rig.t.agent.services.auth.setSupervisorPin("sam", PIN);
  page = await rig.open();
  page.on("response", (r) => {
    if (r.status() === 403 && !(r.request().postData() ?? "").includes('"supervisor":{'))
      forbidden.push(`${r.url()} ${r.request().postData()}`);
  });
  await heading().getByText("Log in: scan your badge").waitFor();
}, deadline(60_000));
afterAll(async () => rig?.close());

describe("operator screen: training from the screen", { timeout: deadline(180_000) }, () => {
  it("a supervisor starts training, starts it over and leaves it, at both panel sizes", async () => {
    await atEverySize(
      page,
      async ({ width, height }) => {
        const at = `at ${width}×${height}`;
        expect(inTraining()).toBe(false);
        await expectAccessible(page, `the login with Start training ${at}`);
        await supervisorTaps("Start training", at);
        await expect.poll(() => banner().isVisible(), { timeout: deadline(5000) }).toBe(true);
        expect(inTraining()).toBe(true);
        await heading().getByText("Log in: scan your badge").waitFor();
        await expectLayout(page, "training's login with its controls");
        await expectAccessible(page, `training's login ${at}`);
        await rig.shot(page, `in-training-${width}`);

        await supervisorTaps("Start training over", at);
        await expect.poll(() => banner().isVisible(), { timeout: deadline(5000) }).toBe(true);
        expect(inTraining()).toBe(true);

        await supervisorTaps("Leave training", at);
        await expect.poll(() => page.locator("#training").isHidden(), { timeout: deadline(5000) }).toBe(true);
        expect(inTraining()).toBe(false);
        await page.getByRole("button", { name: "Start training Supervisor", exact: true }).waitFor();
        await expectAccessible(page, `the station's login again ${at}`);
      },
      PANEL_EXTREMES,
    );
  });

  it("no shown button answered 403", () => {
    expect(forbidden).toEqual([]);
  });
});
