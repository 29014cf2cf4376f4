// @ts-check
// The language chooser (docs/station.md#operator-screen, "Languages"): one compact button in the header
// names the screen's language; it opens a dialog with every language the station speaks, each button
// named in its own language (and marked with its `lang`, so a reader says it right), the current one
// pressed. Eight languages fit at 1024×768 because the header holds one button, not eight.
/** @import { RenderContext } from "./render.js" */
import { $, fill, h, t } from "./dom.js";

/** @type {HTMLElement | null} */
let opener = null;

/**
 * The header's button: the current language's name, which opens the chooser.
 * @param {string} lang the language the page speaks
 * @param {RenderContext["langs"]} langs code → the language's own name
 * @param {RenderContext["act"]} act
 */
export function languageButton(lang, langs, act) {
  const name = langs[lang] ?? lang;
  const open = $("language").hidden === false;
  const button = h(
    "button",
    {
      type: "button",
      id: "language-open",
      class: "language-open",
      "aria-haspopup": "dialog",
      "aria-expanded": open ? "true" : "false",
      "aria-label": `${t("ui.language")}: ${name}`,
      onclick: () => openLanguages(lang, langs, act),
    },
    h("span", { lang }, name),
  );
  // a state drawn while the chooser is open redraws its list (the language may have changed)
  if (open) list(lang, langs, act);
  return button;
}

/**
 * @param {string} lang
 * @param {RenderContext["langs"]} langs
 * @param {RenderContext["act"]} act
 */
function list(lang, langs, act) {
  $("language-title").textContent = t("ui.language");
  fill(
    $("language-list"),
    Object.entries(langs).map(([code, name]) =>
      h(
        "button",
        {
          type: "button",
          lang: code,
          "aria-pressed": code === lang ? "true" : "false",
          onclick: async () => {
            closeLanguages();
            await act({ type: "language", lang: code });
          },
        },
        name,
      ),
    ),
  );
  fill($("language-bar"), h("button", { type: "button", onclick: closeLanguages }, t("ui.back")));
}

/**
 * @param {string} lang
 * @param {RenderContext["langs"]} langs
 * @param {RenderContext["act"]} act
 */
function openLanguages(lang, langs, act) {
  opener = document.getElementById("language-open");
  list(lang, langs, act);
  $("language").hidden = false;
  opener?.setAttribute("aria-expanded", "true");
  // the page disables what it draws while the agent is lost: it is told a dialog was drawn
  document.dispatchEvent(new Event("controls"));
  const pressed = $("language-list").querySelector('[aria-pressed="true"]');
  if (pressed instanceof HTMLElement) pressed.focus();
}

export function closeLanguages() {
  if ($("language").hidden) return;
  $("language").hidden = true;
  const back = document.getElementById("language-open");
  back?.setAttribute("aria-expanded", "false");
  (back ?? opener)?.focus();
}

addEventListener("keydown", (ev) => {
  if (ev.key === "Escape") closeLanguages();
});
