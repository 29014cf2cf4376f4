/**
 * The operator screen's catalogues: English and German have the same keys, every refusal reason of
 * the seat machine and every error code of the station operations has a message, so does every
 * instruction, every `did` and every exception; every `{placeholder}` of one language is in the other.
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../../../src/config/config.schema.js";
import { ERROR_CODES } from "../../../../src/domain/errors.js";
import { EXCEPTION_CODES } from "../../../../src/station/scan-codes.js";
import { de } from "../../../../src/station/screen/messages/de.js";
import { en } from "../../../../src/station/screen/messages/en.js";
import { CATALOGUES, render } from "../../../../src/station/screen/messages/messages.js";
import { DIDS, INSTRUCTIONS, LANGUAGES } from "../../../../src/station/screen/state/types.js";
import { REFUSAL_REASONS } from "../../../../src/station/seat.types.js";

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("message catalogues", () => {
  it("English and German have the same keys", () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(LANGUAGES)("%s: every refusal, instruction, did, exception and mode has a text", (lang) => {
    const cat = CATALOGUES[lang] as Record<string, string>;
    const wanted = [
      ...REFUSAL_REASONS.map((r) => `refusal.${r}`),
      ...ERROR_CODES.map((c) => `refusal.${c}`),
      ...INSTRUCTIONS.map((i) => `instruction.${i}`),
      ...DIDS.map((d) => `did.${d}`),
      ...EXCEPTION_CODES.map((c) => `exception.${c}`),
      "mode.pick",
      "mode.put",
      "mode.audit",
    ];
    expect(wanted.filter((k) => !cat[k]?.trim())).toEqual([]);
  });

  it("every text the page asks for by name is in the catalogue (the page has no texts of its own)", () => {
    const page = new URL("../../../../src/station/screen/page/", import.meta.url);
    const asked = readdirSync(page)
      .filter((f) => f.endsWith(".js"))
      .flatMap((f) =>
        [...readFileSync(new URL(f, page), "utf8").matchAll(/\bt\("([\w.]+)"/g)].map((m) => m[1] ?? ""),
      );
    expect(asked.length).toBeGreaterThan(20);
    expect([...new Set(asked)].filter((k) => !(k in en))).toEqual([]);
  });

  it("the same placeholders in every language", () => {
    const differ = Object.keys(en).filter(
      (k) => placeholders(en[k as keyof typeof en]).join() !== placeholders(de[k as keyof typeof en]).join(),
    );
    expect(differ).toEqual([]);
  });

  it("the config's station.language offers exactly the catalogues' languages", () => {
    const field = configSchema.shape.station.unwrap().shape.language;
    expect([...field.unwrap().options].sort()).toEqual([...LANGUAGES].sort());
  });

  it("renders placeholders", () => {
    expect(render("de", "instruction.scan_item_from_slot", { slot: "M1.A.01" })).toBe(
      "Artikel aus Fach M1.A.01 scannen",
    );
  });
});
