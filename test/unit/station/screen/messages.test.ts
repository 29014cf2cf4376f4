/**
 * The operator screen's catalogues: every language has the same keys as English, every refusal reason of
 * the seat machine and every error code of the station operations has a message, so does every
 * instruction, every `did`, every exception and every `instead` (what to do instead); every
 * `{placeholder}` of the English text is in each translation and no other; bins and slots keep their own
 * words in each language (docs/decisions.md#operator-screen).
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { configSchema } from "../../../../src/config/config.schema.js";
import { ERROR_CODES } from "../../../../src/domain/errors.js";
import { EXCEPTION_CODES } from "../../../../src/station/scan-codes.js";
import { de } from "../../../../src/station/screen/messages/de.js";
import { en } from "../../../../src/station/screen/messages/en.js";
import { CATALOGUES, INSTEAD_KEYS, render } from "../../../../src/station/screen/messages/messages.js";
import { DIDS, INSTRUCTIONS, LANGUAGES, type Lang } from "../../../../src/station/screen/state/types.js";
import { REFUSAL_REASONS } from "../../../../src/station/seat.types.js";

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/**
 * The words for an order bin (the put-to-light wall) and a storage slot of the rack in each language
 * (docs/decisions.md#operator-screen): a text about one never says the other's word.
 */
const TERMS: Record<Lang, { bin: RegExp; slot: RegExp }> = {
  en: { bin: /\bbins?\b/i, slot: /\bslots?\b/i },
  de: { bin: /behälter/i, slot: /\bf(a|ä)ch/i },
  pl: { bin: /pojemnik/i, slot: /lokalizac/i },
  cs: { bin: /\bbox/i, slot: /\bpozic/i },
  nl: { bin: /\bbak(ken)?\b/i, slot: /\bvak(ken)?\b/i },
  fr: { bin: /\bbacs?\b/i, slot: /emplacement/i },
  es: { bin: /contenedor/i, slot: /ubicaci/i },
  tr: { bin: /\bkutu/i, slot: /\bgöz/i },
};

describe("message catalogues", () => {
  it("English and German have the same keys", () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });

  it.each(LANGUAGES)("%s has exactly the English keys, none of them empty", (lang) => {
    const cat = CATALOGUES[lang] as Record<string, string>;
    expect(Object.keys(cat).filter((k) => !(k in en))).toEqual([]);
    expect(Object.keys(en).filter((k) => !cat[k]?.trim())).toEqual([]);
  });

  it.each(LANGUAGES)("%s: every refusal, instruction, did, exception and mode has a text", (lang) => {
    const cat = CATALOGUES[lang] as Record<string, string>;
    const wanted = [
      ...REFUSAL_REASONS.map((r) => `refusal.${r}`),
      ...ERROR_CODES.map((c) => `refusal.${c}`),
      ...INSTRUCTIONS.map((i) => `instruction.${i}`),
      ...DIDS.map((d) => `did.${d}`),
      ...EXCEPTION_CODES.map((c) => `exception.${c}`),
      ...[...INSTEAD_KEYS].map((r) => `instead.${r}`),
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

  it.each(LANGUAGES)("%s: every placeholder of the English text, and no other", (lang) => {
    const cat = CATALOGUES[lang] as Record<string, string>;
    const differ = Object.keys(en)
      .filter((k) => placeholders(en[k as keyof typeof en]).join() !== placeholders(cat[k] ?? "").join())
      .map((k) => `${k}: ${cat[k]}`);
    expect(differ).toEqual([]);
  });

  it("a placeholder test that can fail: a missing or renamed placeholder is found", () => {
    expect(placeholders("Put {quantity} × {sku} into bin {bin}")).not.toEqual(
      placeholders("{quantity} × {sku} in Behälter legen"),
    );
    expect(placeholders("bin {bin}")).not.toEqual(placeholders("Behälter {bn}"));
  });

  it.each(LANGUAGES)("%s: a text about a bin never uses the slot's word, and the other way round", (lang) => {
    const words = TERMS[lang];
    const cat = CATALOGUES[lang] as Record<string, string>;
    const mixed = Object.entries(en).flatMap(([k, text]) => {
      const bin = /\bbins?\b|\{bins?\}/i.test(text);
      const slot = /\bslots?\b|\{slot\}/i.test(text);
      const said = cat[k] ?? "";
      if (bin && !slot && words.slot.test(said)) return [`${k} (a bin, says the slot's word): ${said}`];
      if (slot && !bin && words.bin.test(said)) return [`${k} (a slot, says the bin's word): ${said}`];
      return [];
    });
    expect(mixed).toEqual([]);
  });

  it.each(LANGUAGES)("%s: the bins' and the slots' own words are used", (lang) => {
    const cat = CATALOGUES[lang] as Record<string, string>;
    expect(cat["ui.bins"]).toMatch(TERMS[lang].bin);
    expect(cat["ui.card_put"]).toMatch(TERMS[lang].bin);
    expect(cat["ui.slot"]).toMatch(TERMS[lang].slot);
    expect(cat["ui.card_take"]).toMatch(TERMS[lang].slot);
  });

  it("the language names are each in their own language", () => {
    expect(Object.fromEntries(LANGUAGES.map((l) => [l, CATALOGUES[l]["ui.language_name"]]))).toEqual({
      en: "English",
      de: "Deutsch",
      pl: "Polski",
      cs: "Čeština",
      nl: "Nederlands",
      fr: "Français",
      es: "Español",
      tr: "Türkçe",
    });
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
