/**
 * The label printer's own state on the seat's screen (docs/station.md#shipping-labels-pickpack): a
 * Zebra that is paused, out of paper, with its head open or not answering is named in words with what
 * to do; a printer that is ok, or says nothing of itself, shows nothing.
 */
import { describe, expect, it } from "vitest";
import { CATALOGUES, render } from "../../../../src/station/screen/messages/messages.js";
import { deriveScreen } from "../../../../src/station/screen/state/state.js";
import { printerStateNotice } from "../../../../src/station/screen/state/station-notices.js";
import { screenInput } from "./support.js";

describe("the label printer's state on the screen", () => {
  it.each([
    ["paused", "The label printer is paused: press its pause button, then tap Reprint label"],
    ["paper_out", "The label printer is out of paper: load labels, then tap Reprint label"],
    ["head_open", "The label printer's head is open: close it, then tap Reprint label"],
    ["ribbon_out", "The label printer is out of ribbon: load a ribbon, then tap Reprint label"],
    ["no_answer", "The label printer does not answer: labels wait until it is back. Call a supervisor"],
    ["fault", "The label printer reports a fault. Call a supervisor"],
    ["something new", "The label printer reports a fault. Call a supervisor"],
  ])("%s: a notice in words with a supervisor call", (cause, words) => {
    const screen = deriveScreen(screenInput({ printerState: { ok: false, cause } }));
    const notice = screen.notices.find((n) => n.kind === "printer_state");
    expect(notice?.actions).toEqual(["supervisor"]);
    expect(render("en", notice?.text.key ?? "", notice?.text.params)).toBe(words);
  });

  it("ok, or no state at all: no notice", () => {
    expect(printerStateNotice({ ok: true, cause: null })).toBeNull();
    expect(printerStateNotice(null)).toBeNull();
    expect(deriveScreen(screenInput({})).notices.filter((n) => n.kind === "printer_state")).toEqual([]);
  });

  it("every language has the words, German its own", () => {
    for (const key of Object.keys(CATALOGUES.en).filter((k) => k.startsWith("notice.printer_state_")))
      for (const [lang, catalogue] of Object.entries(CATALOGUES)) {
        expect(catalogue[key as keyof typeof catalogue], `${lang} ${key}`).toBeTruthy();
        if (lang !== "en")
          expect(catalogue[key as keyof typeof catalogue]).not.toBe(
            CATALOGUES.en[key as keyof typeof CATALOGUES.en],
          );
      }
    expect(render("de", "notice.printer_state_paper_out")).toBe(
      "Dem Etikettendrucker fehlt Papier: Etiketten einlegen, dann „Etikett neu drucken“",
    );
  });
});
