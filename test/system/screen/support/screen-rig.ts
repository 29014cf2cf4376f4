/** An agent listening on a port with the embedded simulated station, a browser, and seeding helpers. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { SCREEN_KEYS_FILE } from "../../../../src/services/auth/screen-sessions.js";
import { startTestAgent, type TestAgent } from "../../../support/agent.js";
import { openBrowser, type ScreenBrowser, shooter } from "../../../support/browser.js";
import { type Json, ok, pickBody, pickLine, SR, seedItem, setStock } from "../../../support/station.js";

export interface ScreenRig {
  t: TestAgent;
  base: string;
  browser: ScreenBrowser;
  /** The seat's screen opened with its screen key, as the station box's kiosk does. */
  open(seat?: string): Promise<Page>;
  /** The address the seat's kiosk opens: its screen with its screen key (for a page of its own). */
  kioskUrl(seat: string): string;
  shot: (page: Page, step: string) => Promise<void>;
  /** A scan on the seat's simulated scanner (the device, not the screen). */
  scan(barcode: string, seat?: string): Promise<Json>;
  lights(): Promise<Array<{ ppsBinId: string | null; mode: string; color?: string; quantity?: number }>>;
  later(): void;
  close(): Promise<void>;
}

export async function startScreenRig(
  name: string,
  overrides: Record<string, unknown> = {},
): Promise<ScreenRig> {
  const t = await startTestAgent(overrides, { listen: true });
  const base = `http://127.0.0.1:${t.agent.address?.port}`;
  const browser = await openBrowser();
  const keys = JSON.parse(readFileSync(join(t.dir, SCREEN_KEYS_FILE), "utf8")) as Record<string, string>;
  const rig: ScreenRig = {
    t,
    base,
    browser,
    async open(seat = "front") {
      const page = await browser.page(rig.kioskUrl(seat));
      await page.waitForURL(`${base}/screen/${seat}`);
      await page.locator("body[data-connection=live]").waitFor();
      return page;
    },
    kioskUrl: (seat) => `${base}/screen/${seat}?key=${keys[seat]}`,
    shot: shooter(name),
    async scan(barcode, seat = "front") {
      t.clock.now += 1000; // past the debounce window, as between two scans a person makes
      return ok(t.call("POST", "/station/sim/scan", { seat, barcode }));
    },
    async lights() {
      return (await ok(t.call("GET", "/station/sim/lights"))).lights;
    },
    later() {
      t.clock.now += 1000;
    },
    async close() {
      await browser.close();
      await t.close();
    },
  };
  return rig;
}

/** An item (barcode BC-<sku>), stock at a slot of an MSU, and a pick order of `qty`. */
export async function seedPick(
  t: TestAgent,
  o: { sku: string; order: string; qty: number; slot?: string; msu?: string; item?: Json },
): Promise<void> {
  const { itemBody } = await import("../../../support/fixtures.js");
  if (o.item)
    await ok(t.call("POST", "/api-gateway/mdm-service/wms-masterdata/item", itemBody(o.sku, o.item)));
  else await seedItem(t, o.sku);
  await setStock(t, o.slot ?? "S1", o.msu ?? "M1", o.sku, 20);
  await ok(t.call("POST", SR, pickBody(o.order, [pickLine(`${o.order}-1`, o.sku, o.qty)])));
}

const IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/%3E";

/**
 * One pick order of `count` lines on rack `msu`, each its own item (`L01`, `L02`, …, from `from`) in its own
 * slot (`S01`, …), with a description as long as real ones and an image on every other item: with the
 * orders before it, the rack shows `from - 1 + count` lines.
 */
export async function seedRackLines(
  t: TestAgent,
  o: { order: string; from: number; count: number; msu?: string },
): Promise<string[]> {
  const { itemBody } = await import("../../../support/fixtures.js");
  const skus: string[] = [];
  for (let i = o.from; i < o.from + o.count; i++) {
    const n = String(i).padStart(2, "0");
    const sku = `L${n}`;
    skus.push(sku);
    const item = {
      description: `Line item ${n}, cotton, long sleeve, size XL`,
      ...(i % 2 ? { imageUrl: IMAGE } : {}),
    };
    await ok(t.call("POST", "/api-gateway/mdm-service/wms-masterdata/item", itemBody(sku, item)));
    await setStock(t, `S${n}`, o.msu ?? "M1", sku, 20);
  }
  await ok(
    t.call(
      "POST",
      SR,
      pickBody(
        o.order,
        skus.map((sku, k) => pickLine(`${o.order}-${k + 1}`, sku, 1 + (k % 3))),
      ),
    ),
  );
  return skus;
}
