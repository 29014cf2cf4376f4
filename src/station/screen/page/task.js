// The task panel: what the operator works on in the station's mode (pick lines on the presented racks
// before a scan and the lit one after; a tote's items; the slot being counted).
import { h, t } from "./dom.js";

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

const image = (url, sku) => (url ? h("img", { src: url, alt: t("ui.image", { sku }), class: "thumb" }) : "");

function pick(task) {
  const racks = task.racks.length
    ? task.racks.map((r) => t("ui.rack", { rack: r })).join(" · ")
    : t("ui.no_rack");
  const current = task.current
    ? h(
        "div",
        { class: "current", "aria-label": t("ui.current"), role: "group" },
        image(task.current.imageUrl, task.current.sku),
        h("span", { class: "big" }, `${task.current.quantity} × ${task.current.sku}`),
        h("span", { class: "big" }, t("ui.bin", { bin: task.current.bin })),
        task.current.scanned === null
          ? ""
          : h(
              "span",
              { class: "scanned" },
              t("ui.scanned", { scanned: task.current.scanned, quantity: task.current.quantity }),
            ),
      )
    : "";
  const rows = task.lines.map((l) =>
    h(
      "tr",
      { class: l.lit ? "lit" : "" },
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
    current,
    rows.length ? table(t("ui.task"), head, rows) : h("p", { class: "note" }, t("ui.no_lines")),
  ];
}

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
    h("ul", { class: "totes", "aria-label": t("ui.totes") }, totes),
    current,
    rows.length ? table(t("ui.task"), head, rows) : "",
  ];
}

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
    rows.length ? table(t("ui.task"), head, rows) : "",
    h("p", { class: "note" }, t("ui.slots_left", { slots: task.slotsLeft.join(", ") || "–" })),
  ];
}

export function renderTask(task) {
  if (!task) return [];
  if (task.kind === "pick") return pick(task);
  if (task.kind === "put") return put(task);
  return audit(task);
}
