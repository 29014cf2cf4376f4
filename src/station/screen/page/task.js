// @ts-check
// The task panel: what the operator works on in the station's mode. In pick, a card read from 1.5 m for
// the current line (the slot on a drawing of the rack face, the item, the quantity, the target bin in its
// light's colour; before a scan what to take, after it where to put it) over the list of lines, which
// scrolls in its own panel; a tote's items; the slot being counted.
/** @import { Card, Problem, ScreenState, Task } from "../state/types.js" */
/** @import { Child } from "./dom.js" */
/** @import { RenderContext } from "./render.js" */
import { captureLines } from "./capture.js";
import { $, fill, h, msg, t } from "./dom.js";
import { putCardDo } from "./paths.js";

/**
 * @param {string} label
 * @param {string[]} head
 * @param {HTMLElement[]} rows
 */
const table = (label, head, rows) =>
  h(
    "table",
    { "aria-label": label },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        head.map((c) => h("th", { scope: "col" }, c)),
      ),
    ),
    h("tbody", {}, rows),
  );

/**
 * A long list scrolls in its own panel, which a keyboard can reach too.
 * @param {HTMLElement} content
 * @param {string} [cls]
 */
const list = (content, cls = "") =>
  h(
    "div",
    { class: `list ${cls}`.trim(), tabindex: "0", role: "region", "aria-label": t("ui.lines") },
    content,
  );

/**
 * @param {string | null} url
 * @param {string} sku
 */
const image = (url, sku) => (url ? h("img", { src: url, alt: t("ui.image", { sku }), class: "thumb" }) : "");

/**
 * The slot, big, under a drawing of the rack face (rows × cols, row and col counted from 1) with the slot
 * lit; without face geometry the slot alone.
 * @param {Card} c
 */
function face(c) {
  const f = c.face;
  const label = h("div", { class: "slot-big" }, c.slot);
  if (!f || !(f.rows > 0 && f.cols > 0)) return h("div", { class: "slot-box" }, label);
  const cells = [];
  for (let r = 1; r <= f.rows; r++)
    for (let col = 1; col <= f.cols; col++)
      cells.push(h("span", { class: r === f.row && col === f.col ? "cell here" : "cell" }));
  const drawing = h(
    "div",
    { class: "face", role: "img", "aria-label": t("ui.rack_face", { slot: c.slot }) },
    cells,
  );
  // through the CSSOM: the page's Content-Security-Policy refuses style attributes
  drawing.style.gridTemplateColumns = `repeat(${f.cols}, minmax(0, 1fr))`;
  drawing.style.gridTemplateRows = `repeat(${f.rows}, minmax(0, 1fr))`;
  return h("div", { class: "slot-box with-face" }, drawing, label);
}

/**
 * @param {Card | null} c
 * @param {Extract<Task, { kind: "pick" }> | null} task the pick's (a put's card has none)
 * @param {ScreenState["capture"]} [capture]
 */
function card(c, task, capture = null) {
  if (!c) return "";
  const color = c.binColor ?? "none";
  const current = task?.current ?? null;
  // the line as read names the item; without it the card still says where and how many
  const item = c.row;
  return h(
    "div",
    { class: "card", "data-phase": c.phase, "aria-label": t("ui.current"), role: "group" },
    face(c),
    item?.imageUrl
      ? h("img", { src: item.imageUrl, alt: t("ui.image", { sku: item.sku }), class: "card-image" })
      : "",
    h(
      "div",
      { class: "card-what" },
      h(
        "p",
        { class: "card-do" },
        task === null
          ? putCardDo(c)
          : c.phase === "take"
            ? t("ui.card_take", { slot: c.slot })
            : t("ui.card_put", { bin: c.bin ?? "?" }),
      ),
      h("p", { class: "card-sku" }, item?.sku ?? ""),
      item?.description ? h("p", { class: "card-desc" }, item.description) : "",
      h("p", { class: "card-line" }, t("ui.line_of", { n: c.line, m: c.lines })),
      // of the whole line, as the instruction says it (the card's quantity is what is still to put)
      current && current.scanned !== null
        ? h(
            "p",
            { class: "scanned" },
            t("ui.scanned", { scanned: current.scanned, quantity: current.quantity }),
          )
        : "",
      captureLines(capture),
    ),
    h("p", { class: "card-qty", "aria-label": `${t("ui.quantity")} ${c.quantity}` }, String(c.quantity)),
    c.bin
      ? h("p", { class: "card-bin", "data-color": color }, h("span", {}, t("ui.bin", { bin: c.bin })))
      : "",
  );
}

/**
 * @param {ScreenState} s
 * @param {Extract<Task, { kind: "pick" }>} task
 */
function pick(s, task) {
  const racks = task.racks.length
    ? task.racks.map((r) => t("ui.rack", { rack: r })).join(" · ")
    : t("ui.no_rack");
  const c = s.card;
  // the lit line, or before a scan the line the card says to take (the first)
  const rows = task.lines.map((l, i) =>
    h(
      "tr",
      { class: l.lit || (c?.phase === "take" && i === 0) ? "lit" : "" },
      h("td", {}, l.slot),
      h("td", {}, l.sku, l.scanRequired ? h("span", { class: "tag" }, t("ui.scan_each")) : ""),
      h("td", {}, image(l.imageUrl, l.sku), l.description ?? ""),
      h("td", { class: "num" }, l.quantity),
      h("td", { class: "num" }, l.bin),
    ),
  );
  const head = [t("ui.slot"), t("ui.sku"), t("ui.description"), t("ui.quantity"), t("ui.target_bin")];
  return [
    h("p", { class: "racks" }, racks),
    card(c, task, s.capture),
    rows.length ? list(table(t("ui.task"), head, rows)) : h("p", { class: "note" }, t("ui.no_lines")),
  ];
}

/** @param {Extract<Task, { kind: "put" }>} task */
function put(task) {
  const totes = task.totes.map((x) =>
    h(
      "li",
      { class: x.putId === task.putId ? "lit" : "" },
      `${t("ui.tote", { tote: x.tote ?? x.putId })} · ${t("ui.bin", { bin: x.bin ?? "?" })} · `,
      x.complete ? t("ui.tote_done") : `${t("ui.left")} ${x.left}`,
    ),
  );
  const current = task.current
    ? h(
        "div",
        { class: "current", "aria-label": t("ui.current"), role: "group" },
        h("span", { class: "big" }, `${task.current.quantity} × ${task.current.sku}`),
        task.current.slot ? h("span", { class: "big" }, `${t("ui.slot")} ${task.current.slot}`) : "",
        task.current.scanRequired ? h("span", { class: "tag" }, t("ui.scan_each")) : "",
      )
    : "";
  const rows = task.items.map((i) =>
    h(
      "tr",
      {},
      h("td", {}, i.sku),
      h("td", {}, image(i.imageUrl, i.sku), i.description ?? ""),
      h("td", { class: "num" }, i.expected),
      h("td", { class: "num" }, i.left),
    ),
  );
  const head = [t("ui.sku"), t("ui.description"), t("ui.expected"), t("ui.left")];
  return [
    list(h("ul", { class: "totes", "aria-label": t("ui.totes") }, totes), "short"),
    current,
    rows.length ? list(table(t("ui.task"), head, rows)) : "",
  ];
}

/** @param {Extract<Task, { kind: "audit" }>} task */
function audit(task) {
  if (!task.auditId) return [];
  const rows = task.lines.map((l) =>
    h(
      "tr",
      {},
      h("td", {}, l.sku),
      h("td", {}, l.description ?? ""),
      h("td", { class: "num" }, l.counted),
      h("td", { class: "num" }, l.damaged),
      h("td", { class: "num" }, l.unscannable),
    ),
  );
  const head = [t("ui.sku"), t("ui.description"), t("ui.counted"), t("ui.damaged"), t("ui.unscannable")];
  return [
    task.slot ? h("p", { class: "big" }, t("ui.counting", { slot: task.slot })) : "",
    rows.length ? list(table(t("ui.task"), head, rows)) : "",
    h("p", { class: "note" }, t("ui.slots_left", { slots: task.slotsLeft.join(", ") || "–" })),
  ];
}

/**
 * The task panel's content.
 * @param {ScreenState} s
 * @returns {Child[]}
 */
export function renderTask(s) {
  const task = s.task;
  if (!task) return [];
  if (task.kind === "pick") return pick(s, task);
  // a put's card says what `current` says, and more
  if (task.kind === "put")
    return s.card ? [card(s.card, null), ...put({ ...task, current: null })] : put(task);
  return audit(task);
}

// ---- the problem report: choose the problem, key its quantity, confirm, then where the unit goes ----

/**
 * @param {string} label
 * @param {() => unknown} onclick
 * @param {string} [cls]
 */
const tap = (label, onclick, cls = "") => h("button", { type: "button", class: cls, onclick }, label);

/**
 * @param {string} titleText
 * @param {HTMLElement[]} body
 * @param {HTMLElement[]} bar
 */
function problemBox(titleText, body, bar) {
  fill(
    $("problem-box"),
    h("h2", { id: "problem-title", class: "dialog-title" }, titleText),
    h("div", { class: "dialog-body" }, body),
    h("div", { class: "dialog-bar" }, bar),
  );
  $("problem").setAttribute("aria-labelledby", "problem-title");
  $("problem").hidden = false;
  document.dispatchEvent(new Event("controls"));
  const first = $("problem-box").querySelector("button:not([disabled])");
  if (first instanceof HTMLElement) first.focus();
}

export function closeProblems() {
  $("problem").hidden = true;
}

/** @typedef {Pick<RenderContext, "act" | "openNumpad">} ProblemContext */

/**
 * Step 1: which problem (each in the words of the catalogue). `ctx` has `act(body)` (resolves to
 * whether the agent took it) and `openNumpad(opts)`.
 * @param {Problem[]} problems
 * @param {ProblemContext} ctx
 */
export function openProblems(problems, ctx) {
  problemBox(
    t("ui.problem_title"),
    problems.map((p) => tap(msg(p.label), () => quantity(p, ctx), "warn choice")),
    [tap(t("ui.back"), closeProblems)],
  );
}

/**
 * Step 2: how many (the numpad, with what is left keyed in, at most `max`).
 * @param {Problem} p
 * @param {ProblemContext} ctx
 */
function quantity(p, ctx) {
  closeProblems();
  ctx.openNumpad({
    max: p.max,
    initial: p.default > 0 ? String(Math.min(p.default, p.max)) : "",
    title: p.ask
      ? t("ui.problem_question", { problem: msg(p.label), question: msg(p.ask) })
      : t("ui.problem_quantity", { problem: msg(p.label) }),
    done: (q) => confirmStep(p, q, ctx),
  });
}

/**
 * Step 3: a confirmation, so no problem is reported by a stray tap; then where the unit goes.
 * @param {Problem} p
 * @param {number} q
 * @param {ProblemContext} ctx
 */
function confirmStep(p, q, ctx) {
  const yes = async () => {
    const ok = await ctx.act({ type: "problem", kind: p.kind, quantity: q, confirmed: true });
    if (!ok) return closeProblems();
    problemBox(
      t("ui.problem_where"),
      [h("p", { class: "destination" }, msg(p.destination))],
      [tap(t("ui.done"), closeProblems, "primary")],
    );
  };
  problemBox(
    t("ui.problem_confirm", { problem: msg(p.label), quantity: q }),
    [],
    [tap(t("ui.back"), () => quantity(p, ctx)), tap(t("ui.problem_yes"), yes, "primary")],
  );
}

/**
 * An exception the problem report does not cover: asked once more, so no stray tap reports it.
 * @param {string} label
 * @param {() => Promise<unknown>} report
 */
export function confirmException(label, report) {
  const yes = async () => {
    closeProblems();
    await report();
  };
  problemBox(
    t("ui.exception_confirm", { exception: label }),
    [],
    [tap(t("ui.back"), closeProblems), tap(t("ui.problem_yes"), yes, "primary")],
  );
}
