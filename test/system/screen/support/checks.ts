/**
 * What the operator screen's layout must hold at every panel size (issue "Operator screen for a person at
 * arm's length"), measured in the page: the document does not scroll, every control shown lies in the
 * window, is at least 48×48 px, overlaps no other and keeps 8 px from it; and axe-core's findings.
 * A control scrolled out of its own panel (a long list, the bins) is not shown; while a dialog is open
 * only its controls count (the page behind it cannot be tapped).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect } from "vitest";

export const SIZES = [
  { width: 1024, height: 768 },
  { width: 1280, height: 800 },
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
] as const;

export interface Geometry {
  size: { width: number; height: number };
  scroll: { width: number; height: number };
  shifted: string[];
  controls: number;
  outside: string[];
  small: string[];
  overlaps: string[];
  crowded: string[];
  /** elements that stick out of the window (named in a failure) */
  sticking: string[];
  quantityPx: number | null;
  /** the lit line of a list lies inside its panel (null: no lit line) */
  litInView: boolean | null;
}

/** Runs in the page (no DOM types in this project: the function is sent as source). */
const MEASURE = `(() => {
  const vw = innerWidth, vh = innerHeight;
  const de = document.documentElement;
  const clips = (el) => {
    const out = [];
    for (let p = el.parentElement; p && p !== document.body && p !== de; p = p.parentElement) {
      const cs = getComputedStyle(p);
      if (/(auto|scroll|hidden)/.test(cs.overflowX + cs.overflowY)) out.push(p.getBoundingClientRect());
    }
    return out;
  };
  const visible = (el) => {
    let r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === "hidden") return null;
    let { left, top, right, bottom } = r;
    for (const c of clips(el)) {
      left = Math.max(left, c.left); top = Math.max(top, c.top);
      right = Math.min(right, c.right); bottom = Math.min(bottom, c.bottom);
    }
    if (right - left < 1 || bottom - top < 1) return null;
    return { left, top, right, bottom, full: r };
  };
  const name = (el) => (el.getAttribute("aria-label") || el.textContent || el.id || el.tagName).trim().slice(0, 40);
  const dialog = [...document.querySelectorAll(".overlay")].find((o) => !o.hidden);
  const scope = dialog ?? document;
  const controls = [...scope.querySelectorAll("button, input, [role=button]")]
    .map((el) => ({ el, v: visible(el), n: name(el) }))
    .filter((c) => c.v);
  const outside = controls.filter(({ v }) => v.left < -0.5 || v.top < -0.5 || v.right > vw + 0.5 || v.bottom > vh + 0.5).map((c) => c.n);
  const small = controls
    .filter(({ v }) => v.full.width < 47.5 || v.full.height < 47.5)
    .map((c) => c.n + " " + Math.round(c.v.full.width) + "x" + Math.round(c.v.full.height));
  const overlaps = [], crowded = [];
  for (let i = 0; i < controls.length; i++)
    for (let j = i + 1; j < controls.length; j++) {
      const a = controls[i].v.full, b = controls[j].v.full;
      if (controls[i].el.contains(controls[j].el) || controls[j].el.contains(controls[i].el)) continue;
      const dx = Math.max(b.left - a.right, a.left - b.right);
      const dy = Math.max(b.top - a.bottom, a.top - b.bottom);
      const pair = controls[i].n + " / " + controls[j].n;
      if (dx < -0.5 && dy < -0.5) overlaps.push(pair);
      else if (Math.max(dx, dy) < 7.5) crowded.push(pair + " " + Math.round(Math.max(dx, dy)) + "px");
    }
  // what sticks out of the window (for the failure message): elements no panel clips
  const sticking = [...document.body.querySelectorAll("*")]
    .filter((el) => el.offsetParent !== null || el === document.body)
    .filter((el) => clips(el).length === 0)
    .map((el) => ({ el, r: el.getBoundingClientRect() }))
    .filter(({ r }) => r.bottom > vh + 0.5 || r.right > vw + 0.5)
    .slice(0, 6)
    .map(({ el, r }) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + "." + String(el.className).split(" ")[0] + " " + Math.round(r.right) + "," + Math.round(r.bottom));
  const qty = document.querySelector(".card-qty");
  const lit = document.querySelector(".list .lit");
  let litInView = null;
  if (lit) {
    const r = lit.getBoundingClientRect(), p = lit.closest(".list").getBoundingClientRect();
    litInView = r.top >= p.top - 1 && r.bottom <= p.bottom + 1;
  }
  return {
    size: { width: vw, height: vh },
    scroll: { width: Math.max(de.scrollWidth, document.body.scrollWidth), height: Math.max(de.scrollHeight, document.body.scrollHeight) },
    // no region that is not a list was scrolled (overflow: hidden boxes can be, by scrollIntoView)
    shifted: [de, document.body, ...document.querySelectorAll("main, .task, .work, .say, .foot")]
      .filter((el) => el.scrollTop !== 0 || el.scrollLeft !== 0)
      .map((el) => el.tagName.toLowerCase() + "." + String(el.className)),
    controls: controls.length,
    outside, small, overlaps, crowded, sticking,
    quantityPx: qty && qty.offsetParent ? parseFloat(getComputedStyle(qty).fontSize) : null,
    litInView,
  };
})()`;

export async function measure(page: Page): Promise<Geometry> {
  return (await page.evaluate(MEASURE)) as Geometry;
}

/** Every layout rule at the page's current size; `where` names the state in a failure. */
export async function expectLayout(page: Page, where: string): Promise<Geometry> {
  const g = await measure(page);
  const at = `${where} at ${g.size.width}×${g.size.height}`;
  const sticking = g.sticking.join("; ");
  expect(g.scroll.height, `${at}: the document scrolls (${sticking})`).toBeLessThanOrEqual(g.size.height);
  expect(g.scroll.width, `${at}: the document scrolls sideways (${sticking})`).toBeLessThanOrEqual(
    g.size.width,
  );
  expect(g.shifted, `${at}: regions scrolled`).toEqual([]);
  expect(g.controls, `${at}: no control shown`).toBeGreaterThan(0);
  expect(g.outside, `${at}: controls outside the window`).toEqual([]);
  expect(g.overlaps, `${at}: controls overlap`).toEqual([]);
  expect(g.small, `${at}: controls under 48×48 px`).toEqual([]);
  expect(g.crowded, `${at}: controls closer than 8 px`).toEqual([]);
  if (g.litInView !== null) expect(g.litInView, `${at}: the current line is scrolled away`).toBe(true);
  if (g.size.width === 1920 && g.size.height === 1080 && g.quantityPx !== null)
    expect(g.quantityPx, `${at}: the quantity is too small`).toBeGreaterThanOrEqual(64);
  return g;
}

/** The smallest and the largest panel: where a new state of the screen is checked. */
export const PANEL_EXTREMES = [
  { width: 1024, height: 768 },
  { width: 1920, height: 1080 },
] as const;

/**
 * Each size in turn (the layout settles a frame after a resize), back to `rest` at the end: 1280×800,
 * the browser's, unless the test works at another size between its checks.
 */
export async function atEverySize(
  page: Page,
  check: (size: { width: number; height: number }) => Promise<void>,
  sizes: ReadonlyArray<{ width: number; height: number }> = SIZES,
  rest: { width: number; height: number } = { width: 1280, height: 800 },
) {
  try {
    for (const size of sizes) {
      await page.setViewportSize(size);
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
      await check(size);
    }
  } finally {
    await page.setViewportSize(rest);
  }
}

/**
 * A new state of the screen checked where it must hold: the layout rules and axe-core at both panel
 * sizes (PANEL_EXTREMES), a screenshot of each for the record, back to 1280×800 after.
 */
export async function checkedAtPanelSizes(
  page: Page,
  rig: { shot(page: Page, name: string): Promise<unknown> },
  where: string,
): Promise<void> {
  await atEverySize(
    page,
    async (size) => {
      await expectLayout(page, where);
      await expectAccessible(page, `${where} at ${size.width}×${size.height}`);
      await rig.shot(page, `${where.replaceAll(" ", "-")}-${size.width}`);
    },
    PANEL_EXTREMES,
  );
}

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

export interface AxeFinding {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

let axeSource: string | undefined;

/**
 * axe-core in the page, from node_modules (nothing from a CDN): its serious and critical violations. The
 * page's Content-Security-Policy (`script-src 'self'`) refuses the inline script tag
 * `page.addScriptTag({path})` would add, and the test keeps that policy on: the same file is evaluated
 * through the DevTools protocol instead. It stays until the page navigates.
 */
export async function axeFindings(page: Page): Promise<AxeFinding[]> {
  axeSource ??= readFileSync(AXE, "utf8");
  if (!(await page.evaluate("typeof window.axe !== 'undefined'"))) await page.evaluate(axeSource);
  return (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((r) =>
    r.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) })))`)) as AxeFinding[];
}

export async function expectAccessible(page: Page, where: string): Promise<void> {
  expect(await axeFindings(page), `axe-core in ${where}`).toEqual([]);
}

/**
 * The contrast of a blinking tile's text on its ground in each phase of its blink (the animation is
 * paused at the start and half way).
 */
export async function blinkContrast(p: Page, selector: string): Promise<number[]> {
  return (await p.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    const lum = (c) => {
      const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => Number(v) / 255)
        .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const out = [];
    for (const a of el.getAnimations()) a.pause();
    for (const at of [0, 0.5]) {
      for (const a of el.getAnimations()) a.currentTime = at * Number(a.effect.getTiming().duration) + 1;
      const cs = getComputedStyle(el);
      const l1 = lum(cs.color), l2 = lum(cs.backgroundColor);
      out.push((Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05));
    }
    for (const a of el.getAnimations()) a.play();
    return out;
  })()`)) as number[];
}
