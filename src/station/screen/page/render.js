// Renders one screen state (src/station/screen/state/types.ts): the page never decides what to show,
// it only draws what the agent sent. `act(body)` sends a tap; `openNumpad()` asks for a quantity.
import { $, fill, h, msg, t } from "./dom.js";
import { renderTask } from "./task.js";

const button = (label, onclick, cls = "") => h("button", { type: "button", class: cls, onclick }, label);

function header(s, langs, act) {
  $("title").textContent = t("ui.title", { ppsId: s.ppsId, seat: s.seat });
  $("mode").textContent = t(`mode.${s.mode}`);
  $("mode").dataset.mode = s.mode;
  $("operator").textContent = `${t("ui.operator")}: ${s.operator ?? t("ui.nobody")}`;
  const down = s.devices.filter((d) => !d.connected);
  fill(
    $("devices"),
    down.length
      ? down.map((d) =>
          h("span", { class: "down", title: d.lastError ?? "" }, t("ui.device_down", { device: d.id })),
        )
      : h("span", { class: "ok" }, t("ui.devices_ok")),
  );
  fill(
    $("languages"),
    s.allowed.language
      ? Object.entries(langs).map(([code, name]) =>
          h(
            "button",
            {
              type: "button",
              lang: code,
              "aria-pressed": code === s.lang ? "true" : "false",
              onclick: () => act({ type: "language", lang: code }),
            },
            name,
          ),
        )
      : [],
  );
}

function bins(s, act) {
  const tiles = s.bins.map((b) => {
    const l = b.light;
    const shown = l.mode === "show";
    const actions = b.actions.map((a) =>
      button(t(`ui.bin_${a}`, { bin: b.id }), () => act({ type: a, bin: b.id }), "small"),
    );
    return h(
      "div",
      {
        role: "group",
        "aria-label": t("ui.bin", { bin: b.id }),
        class: `bin${b.mine ? " mine" : ""}`,
        "data-light": shown ? l.color : "off",
        "data-blink": shown && l.blink ? "true" : "false",
      },
      h("span", { class: "bin-id" }, b.id),
      h("span", { class: "bin-qty" }, shown && l.quantity !== undefined ? String(l.quantity) : ""),
      h("span", { class: "bin-state" }, t(`bin.${b.state}`)),
      h("span", { class: "bin-orders" }, b.orders.map((o) => o.id).join(", ")),
      b.printError ? h("span", { class: "bin-error" }, t("ui.print_failed", { error: b.printError })) : "",
      actions,
    );
  });
  fill($("bins"), h("h2", {}, t("ui.bins")), h("div", { class: "bin-grid" }, tiles));
  $("bins").setAttribute("aria-label", t("ui.bins"));
}

function last(s) {
  const e = s.lastEvent;
  const el = $("last");
  el.setAttribute("aria-label", t("ui.last_event"));
  el.dataset.tone = e ? e.tone : "none";
  if (!e) return fill(el, h("span", {}, t("ui.last_event")));
  fill(
    el,
    h("span", { class: "last-label" }, `${t("ui.last_event")}:`),
    h("span", { class: "last-text" }, t(`ui.via_${e.input}`, { text: e.text })),
    h("span", { class: "last-result" }, msg(e.message)),
  );
}

function actions(s, act, openNumpad) {
  const a = s.allowed;
  const out = [];
  if (a.confirm) out.push(button(t("ui.confirm"), () => act({ type: "confirm" }), "primary"));
  if (a.closeSlot) out.push(button(t("ui.close_slot"), () => act({ type: "confirm" }), "primary"));
  if (a.keyin) out.push(button(t("ui.key_in"), () => openNumpad((q) => act({ type: "keyin", quantity: q }))));
  for (const code of a.exceptions)
    out.push(button(t(`exception.${code}`), () => act({ type: "exception", code }), "warn"));
  if (a.cancel) out.push(button(t("ui.cancel"), () => act({ type: "cancel" })));
  for (const mode of a.modes)
    out.push(
      button(t("ui.switch_mode", { mode: t(`mode.${mode}`) }), () => act({ type: "mode", mode }), "small"),
    );
  if (a.logout) out.push(button(t("ui.log_out"), () => act({ type: "logout" }), "small"));
  fill($("actions"), out);
}

function login(s, act) {
  $("login").hidden = !s.allowed.login;
  $("login-label").textContent = t("ui.badge");
  $("login-submit").textContent = t("ui.log_in");
  fill(
    $("operators"),
    s.operators.map((name) => button(t("ui.log_in_as", { name }), () => act({ type: "login", user: name }))),
  );
}

export function render(s, ctx) {
  document.documentElement.lang = ctx.lang;
  $("main").hidden = false;
  header(s, ctx.langs, ctx.act);
  $("instruction").textContent = msg(s.instruction);
  login(s, ctx.act);
  fill($("task"), renderTask(s.task));
  $("task").setAttribute("aria-label", t("ui.task"));
  bins(s, ctx.act);
  last(s);
  actions(s, ctx.act, ctx.openNumpad);
  $("sim").hidden = !s.simulatedScanner;
  $("sim-label").textContent = t("ui.sim_scanner");
  $("sim-submit").textContent = t("ui.sim_scan");
}
