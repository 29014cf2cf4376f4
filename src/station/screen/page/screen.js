// The operator screen page (docs/station.md#operator-screen): connects to the seat's live screen state
// (Server-Sent Events), renders every state it receives, sends taps, and shows a banner when the agent
// is lost: at once when the connection breaks, or when no heartbeat came for STALE_MS. It reconnects by
// itself and recovers without a reload.
import { $, h, t, useCatalogue } from "./dom.js";
import { render } from "./render.js";
import { play, unlock } from "./sound.js";

const seat = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] ?? "");
const base = `/station/seats/${encodeURIComponent(seat)}/screen`;
const forced = new URLSearchParams(location.search).get("lang");
/** The agent sends a ping every 700 ms: missing two means it is gone. */
const STALE_MS = 1500;

const catalogues = {};
const langs = {};
let state = null;
let lastSeq = null;
let seen = 0;
let source = null;
let signedIn = false;
let busy = false;

async function catalogue(lang) {
  if (!catalogues[lang]) {
    const res = await fetch(`/screen/assets/messages/${lang}`);
    catalogues[lang] = res.ok ? await res.json() : {};
  }
  return catalogues[lang];
}

function banner(lost) {
  const el = $("banner");
  el.textContent = t("ui.connection_lost");
  el.hidden = !lost;
  document.body.dataset.connection = lost ? "lost" : "live";
}

async function show(s) {
  const lang = forced ?? s.lang;
  useCatalogue(await catalogue(lang));
  state = s;
  signedIn = true;
  $("signin").hidden = true;
  render(s, { lang, langs, act, openNumpad });
  const e = s.lastEvent;
  if (e && lastSeq !== null && e.seq > lastSeq) play(e.tone);
  lastSeq = e ? e.seq : (lastSeq ?? 0);
}

async function act(body) {
  if (busy) return;
  busy = true;
  unlock();
  try {
    const res = await fetch(`${base}/actions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (res.status === 401 || res.status === 403) showSignIn();
  } catch {
    banner(true);
  } finally {
    busy = false;
  }
}

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

let numpadDone = null;
function openNumpad(done) {
  numpadDone = done;
  $("numpad-value").value = "";
  const key = (label, onclick, cls = "") => h("button", { type: "button", class: cls, onclick }, label);
  const digit = (d) =>
    key(String(d), () => {
      const v = $("numpad-value").value;
      if (v.length < 6) $("numpad-value").value = v + String(d);
    });
  $("numpad-keys").replaceChildren(
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 0].map(digit),
    key(t("ui.numpad_clear"), () => {
      $("numpad-value").value = "";
    }),
    key(t("ui.numpad_ok"), submitNumpad, "primary"),
    key(t("ui.numpad_close"), closeNumpad),
  );
  $("numpad").setAttribute("aria-label", t("ui.key_in"));
  $("numpad").hidden = false;
}
function closeNumpad() {
  $("numpad").hidden = true;
  numpadDone = null;
}
function submitNumpad() {
  const q = Number($("numpad-value").value);
  const done = numpadDone;
  closeNumpad();
  if (done && Number.isInteger(q) && q > 0) done(q);
}

function forms() {
  $("signin-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const res = await fetch(`/screen/${encodeURIComponent(seat)}/session`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ username: $("signin-user").value, password: $("signin-password").value }),
    });
    $("signin-password").value = "";
    if (res.ok) check();
    else showSignIn("ui.sign_in_failed");
  });
  $("login-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const user = $("login-user").value.trim();
    $("login-user").value = "";
    if (user) act({ type: "login", user });
  });
  $("sim-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const barcode = $("sim-barcode").value.trim();
    $("sim-barcode").value = "";
    if (barcode) act({ type: "scan", barcode });
  });
  document.addEventListener("pointerdown", unlock, { once: true });
}

async function main() {
  for (const code of ["en", "de"]) langs[code] = (await catalogue(code))["ui.language_name"] ?? code;
  useCatalogue(await catalogue(forced ?? "en"));
  forms();
  if (location.hash === "#key-refused") {
    history.replaceState(null, "", location.pathname + location.search);
    showSignIn("ui.key_refused");
  } else await check();
  setInterval(watchdog, 250);
}

main();
