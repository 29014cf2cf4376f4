// @ts-check
// The TRAINING banner (docs/station.md#training): a seat in training says so in every state, as a stripe
// at the top and a frame around the whole screen, so nobody takes practice for the station's real work.
/** @import { ScreenState } from "../state/types.js" */
import { $, t } from "./dom.js";

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
