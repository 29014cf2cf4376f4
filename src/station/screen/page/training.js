// @ts-check
// The TRAINING banner (docs/station.md#training): a seat in training says so in every state, as a stripe
// at the top and a frame around the whole screen, so nobody takes practice for the station's real work.
/** @import { ScreenState } from "../state/types.js" */
/** @import { RenderContext } from "./render.js" */
import { $, fill, h, t } from "./dom.js";
import { supervised } from "./supervisor.js";

/** @param {ScreenState} s */
export function training(s) {
  const el = $("training");
  el.hidden = !s.training;
  const text = s.training ? t("training.banner") : "";
  // the same text is not written again: a status region would announce it on every state
  if (el.textContent !== text) el.textContent = text;
  if (s.training) document.body.dataset.training = "true";
  else delete document.body.dataset.training;
}

/**
 * Entering, leaving and starting the training over at the seat (docs/station.md#training), beside the
 * login while nobody is logged in: a supervisor's taps (the state's `supervised`), each asking for the
 * supervisor's badge or PIN first.
 * @param {ScreenState} s
 * @param {RenderContext["act"]} act
 */
export function trainingControls(s, act) {
  const el = $("training-control");
  /** @param {"training" | "training_reset"} type @param {import("../messages/en.js").MessageKey} key @param {Record<string, unknown>} body */
  const tap = (type, key, body) =>
    supervised(
      s,
      type,
      h("button", { type: "button", class: "small", onclick: () => act({ type, ...body }) }, t(key)),
    );
  if (!s.allowed.login) return fill(el);
  fill(
    el,
    ...(s.training
      ? [
          tap("training", "ui.training_leave", { training: false }),
          tap("training_reset", "ui.training_reset", {}),
        ]
      : [tap("training", "ui.training_enter", { training: true })]),
  );
}
