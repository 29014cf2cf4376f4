/**
 * A real browser for the operator screen's tests: Debian's chromium (installed by `.ci/run` and by
 * `npm run setup`) driven by playwright-core, headless, with a fresh profile each time. Never
 * a downloaded browser build. Screenshots of each step go to test-results/screen/ (kept out of git).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.PPS_EDGE_CHROMIUM ?? "/usr/bin/chromium";
export const SHOTS = fileURLToPath(new URL("../../test-results/screen/", import.meta.url));

export interface ScreenBrowser {
  context: BrowserContext;
  page(url?: string): Promise<Page>;
  close(): Promise<void>;
}

export async function openBrowser(): Promise<ScreenBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "pps-edge-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    viewport: { width: 1280, height: 800 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--autoplay-policy=no-user-gesture-required",
    ],
  });
  return {
    context,
    async page(url) {
      const p = context.pages()[0] ?? (await context.newPage());
      if (url) await p.goto(url);
      return p;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A screenshot of the step into test-results/screen/<test>/<nn>-<step>.png. */
export function shooter(test: string) {
  const dir = join(SHOTS, test);
  mkdirSync(dir, { recursive: true });
  let n = 0;
  return async (page: Page, step: string) => {
    n++;
    await page.screenshot({ path: join(dir, `${String(n).padStart(2, "0")}-${step}.png`) });
  };
}
