// @ts-check
// The operator screen page (docs/station.md#operator-screen): connects to the seat's live screen state
// (Server-Sent Events), renders every state it receives, sends taps, and shows a banner when the agent
// is lost: at once when the connection breaks, or when no heartbeat came for STALE_MS. It reconnects by
// itself and recovers without a reload.
/** @import { MessageKey } from "../messages/en.js" */
/** @import { ScreenState } from "../state/types.js" */
/** @import { Tap } from "./render.js" */
import { $, $as, t, useCatalogue } from "./dom.js";
import { closeNumpad, openNumpad } from "./numpad.js";
import { keepInView, render } from "./render.js";
import { renderSeatControl } from "./seat-control.js";
import { play, unlock } from "./sound.js";
import { supervisedTap, supervisorSeen } from "./supervisor.js";
import { closeProblems, confirmException, openProblems } from "./task.js";

const seat = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const base = `/station/seats/${encodeURIComponent(seat)}/screen`;
/** `?lang=`: the page's language over the operator's and the station's (one the station speaks, else none). */
let forced = new URLSearchParams(location.search).get("lang");
/** The agent sends a ping every 700 ms: missing two means it is gone. */
const STALE_MS = 1500;

/** @type {Record<string, Record<string, string>>} */
const catalogues = {};
/**
 * The languages to choose: code → the language's own name (`/screen/assets/languages`).
 * @type {Record<string, string>}
 */
const langs = {};
/** @type {ScreenState | null} */
let state = null;
/** @type {number | null} */
let lastSeq = null;
let seen = 0;
/** @type {EventSource | null} */
let source = null;
let signedIn = false;
/** The tap in flight: a tap made meanwhile waits for it, so none is dropped (see post). */
let inflight = Promise.resolve();
/** @type {{ key: string, run: Promise<Response | null> } | null} */
let pending = null;
let lost = false;
/** @type {number | null} */
let lastSound = null;
/** @type {number | undefined} */
let flashTimer;

/**
 * @param {string} lang
 * @returns {Promise<Record<string, string>>}
 */
async function catalogue(lang) {
  const known = catalogues[lang];
  if (known) return known;
  const res = await fetch(`/screen/assets/messages/${lang}`);
  const cat = res.ok ? await res.json() : {};
  catalogues[lang] = cat;
  return cat;
}

/**
 * While the agent is lost every control is disabled (a tap would act on a state the agent may no longer
 * have) and the header says so; the controls the page disabled come back when the stream does.
 * @param {boolean} isLost
 */
function banner(isLost) {
  lost = isLost;
  const el = $("banner");
  el.textContent = t("ui.connection_lost");
  el.hidden = !lost;
  $("connection").textContent = t(lost ? "ui.connection_lost_short" : "ui.connection_ok");
  $("connection").dataset.state = lost ? "lost" : "live";
  document.body.dataset.connection = lost ? "lost" : "live";
  outage();
}

/** Disables (or gives back) every control of the page, keeping those a rule of their own disabled. */
function outage() {
  for (const el of document.querySelectorAll(
    ".top button, #main button, #main input, .overlay button, .overlay input",
  )) {
    if (!(el instanceof HTMLButtonElement || el instanceof HTMLInputElement)) continue;
    if (el.closest("#signin")) continue;
    if (lost && !el.disabled) {
      el.disabled = true;
      el.dataset.outage = "true";
    } else if (!lost && el.dataset.outage) {
      el.disabled = false;
      delete el.dataset.outage;
    }
  }
}

/**
 * A short message in the instruction area (e.g. a tap made on a screen that had changed).
 * @param {MessageKey} key
 */
function flash(key) {
  const el = $("flash");
  el.textContent = t(key);
  el.hidden = false;
  clearTimeout(flashTimer);
  flashTimer = setTimeout(() => {
    el.hidden = true;
  }, 4000);
}

/**
 * Draws a state the agent sent, in the page's language.
 * @param {ScreenState} s
 */
async function show(s) {
  const lang = forced ?? s.lang;
  useCatalogue(await catalogue(lang));
  const first = state === null;
  state = s;
  signedIn = true;
  $("signin").hidden = true;
  render(s, {
    lang,
    langs,
    act,
    openNumpad: (opts) => openNumpad({ keyin: s.keyin, ...opts }),
    confirmException,
    openProblems: () =>
      openProblems(s.problems, {
        act,
        openNumpad: (opts) => openNumpad({ keyin: null, ...opts }),
      }),
  });
  renderSeatControl(s, act);
  supervisorSeen(s);
  sounds(s, first);
  outage();
}

/**
 * Good and refused tones follow the last event; the completion chord plays only when the state says
 * `sound.kind: "complete"`.
 * @param {ScreenState} s
 * @param {boolean} first
 */
function sounds(s, first) {
  const e = s.lastEvent;
  const fresh = e && lastSeq !== null && e.seq > lastSeq && !first;
  lastSeq = e ? e.seq : (lastSeq ?? 0);
  const at = s.sound ? s.sound.at : null;
  const sound = s.sound && at !== lastSound && !first ? s.sound.kind : null;
  if (at !== null) lastSound = at;
  if (sound === "complete") play("complete");
  else if (sound === "error") play("refused");
  else if (fresh) play(e.tone === "complete" ? "good" : e.tone);
}

/**
 * A tap: one the screen's session may not make by itself (the state's `supervised`) first asks for a
 * supervisor's badge or PIN, which goes with it (docs/station.md#supervisor-at-the-seat).
 * @param {Tap} body
 * @returns {Promise<boolean>}
 */
async function act(body) {
  if (supervisedTap(state, body, post)) return false;
  return (await post(body))?.ok ?? false;
}

/**
 * Sends a tap: carries the `version` of the state it was made on, so the agent
 * refuses a tap made on a screen that has since changed (409 `stale_screen`): the page then says so
 * and shows the latest state. Nothing is sent while the agent is lost.
 * @param {Tap} body
 * @returns {Promise<Response | null>}
 */
function post(body) {
  if (lost) return Promise.resolve(null);
  unlock();
  // the version is the one the tap was made on, even when it waits: a state pushed over the stream
  // before the last tap's answer came back is one the operator already sees and may act on
  const sent = state ? { ...body, version: state.version } : body;
  // a double tap on a touch panel is one tap: the same tap on the same state while it is in flight
  const key = JSON.stringify(sent);
  if (pending?.key === key) return pending.run;
  const run = inflight.then(() => send(sent));
  const mine = { key, run };
  pending = mine;
  inflight = run.then(() => {
    if (pending === mine) pending = null;
  });
  return run;
}

/**
 * @param {Tap & { version?: number }} sent
 * @returns {Promise<Response | null>}
 */
async function send(sent) {
  try {
    const res = await fetch(`${base}/actions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(sent),
    });
    if (res.status === 403) {
      // a tap this screen's user (or the station box's display) may not make, e.g. a mode switch,
      // which is an admin's: said on the page; any other 403 asks to sign in again
      const err = await res
        .clone()
        .json()
        .catch(() => ({}));
      if (err.details?.supervisor) {
        // a supervisor's credential refused: the supervisor's prompt says so
      } else if (err.details?.tap) flash("ui.not_allowed");
      else showSignIn();
    }
    if (res.status === 401) showSignIn();
    if (res.status === 409) {
      const err = await res
        .clone()
        .json()
        .catch(() => ({}));
      if (err.code === "stale_screen") {
        closeNumpad();
        closeProblems();
        flash("ui.stale_screen");
        const latest = await fetch(base);
        if (latest.ok) await show(await latest.json());
      }
    }
    return res;
  } catch {
    banner(true);
    return null;
  }
}

/** @param {MessageKey} [note] a note above the form */
function showSignIn(note) {
  signedIn = false;
  $("main").hidden = true;
  $("signin").hidden = false;
  $("signin-title").textContent = t("ui.sign_in_title");
  $("signin-user-label").textContent = t("ui.username");
  $("signin-password-label").textContent = t("ui.password");
  $("signin-submit").textContent = t("ui.sign_in");
  $("signin-note").hidden = !note;
  $("signin-note").textContent = note ? t(note) : "";
}

/** The stream; on a break the browser retries, and a stale one is replaced. */
function connect() {
  source?.close();
  const es = new EventSource(`${base}/events`);
  source = es;
  es.addEventListener("open", () => {
    seen = Date.now();
  });
  es.addEventListener("ping", () => {
    seen = Date.now();
    banner(false);
  });
  es.addEventListener("screen", (ev) => {
    seen = Date.now();
    signedIn = true;
    banner(false);
    show(JSON.parse(ev.data));
  });
  es.addEventListener("error", () => {
    if (es !== source) return;
    banner(state !== null);
    if (es.readyState === EventSource.CLOSED) setTimeout(check, 500);
  });
}

/** Is the screen still signed in (a closed stream may be a 401)? */
async function check() {
  try {
    const res = await fetch(base);
    if (res.status === 401 || res.status === 403) return showSignIn();
    if (res.ok) {
      await show(await res.json());
      connect();
      return;
    }
  } catch {
    // the agent is not there: the watchdog tries again
  }
  banner(true);
}

let checking = false;
let lastCheck = 0;
function watchdog() {
  if (!signedIn) return;
  const quiet = Date.now() - seen;
  if (quiet > STALE_MS) banner(true);
  // a broken stream is replaced once a second until the agent answers (the browser's own retry may
  // have given up); a stream that is open but silent (a hung agent) recovers by itself when pings resume
  if (
    quiet > STALE_MS &&
    source?.readyState !== EventSource.OPEN &&
    !checking &&
    Date.now() - lastCheck > 1000
  ) {
    lastCheck = Date.now();
    checking = true;
    check().finally(() => {
      checking = false;
    });
  }
}

/** @param {string} id */
const input = (id) => $as(id, HTMLInputElement);

function forms() {
  $("signin-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const res = await fetch(`/screen/${encodeURIComponent(seat)}/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        username: input("signin-user").value,
        password: input("signin-password").value,
      }),
    });
    input("signin-password").value = "";
    if (res.ok) check();
    else showSignIn("ui.sign_in_failed");
  });
  $("login-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const user = input("login-user").value.trim();
    input("login-user").value = "";
    if (user) act({ type: "login", user });
  });
  $("sim-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const barcode = input("sim-barcode").value.trim();
    input("sim-barcode").value = "";
    if (barcode) act({ type: "scan", barcode });
  });
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("controls", outage);
  // a panel resized (or turned) keeps the current line in view
  addEventListener("resize", keepInView);
}

async function main() {
  const known = await fetch("/screen/assets/languages");
  if (known.ok) Object.assign(langs, await known.json());
  if (forced !== null && !(forced in langs)) forced = null;
  useCatalogue(await catalogue(forced ?? "en"));
  // the sign-in form speaks that language before any state is drawn
  document.documentElement.lang = forced ?? "en";
  forms();
  if (location.hash === "#key-refused") {
    history.replaceState(null, "", location.pathname + location.search);
    showSignIn("ui.key_refused");
  } else await check();
  setInterval(watchdog, 250);
}

main();
