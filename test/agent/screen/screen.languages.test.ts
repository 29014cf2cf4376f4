/**
 * The screen's eight languages in the agent (in-process, a real SQLite file; docs/station.md#operator-screen,
 * "Languages"): the station's language from the config (file or environment), an operator's own chosen
 * with the `language` action and kept with their name, the chooser's list and each catalogue served; an
 * unknown language is refused naming the field at fault, and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.load.js";
import { LANGUAGES, type ScreenState } from "../../../src/station/screen/state/types.js";
import { startTestAgent, type TestAgent } from "../../support/agent.js";
import { failure } from "../../support/failure.js";
import { ok } from "../../support/station.js";

let t: TestAgent;
const screen = async () => (await ok(t.call("GET", "/station/seats/front/screen"))) as unknown as ScreenState;
const act = (body: Record<string, unknown>) => {
  t.clock.now += 1000; // past the scan debounce: login and logout are the badge at the seat
  return t.call("POST", "/station/seats/front/screen/actions", body);
};

beforeAll(async () => {
  t = await startTestAgent({ station: { language: "pl" } });
});
afterAll(async () => t?.close());

describe("the screen's languages", () => {
  it("the station speaks its configured language while nobody is logged in", async () => {
    expect((await screen()).lang).toBe("pl");
  });

  it("config takes each of the eight languages, from the file or the environment, and refuses another", () => {
    for (const lang of LANGUAGES) {
      expect(parseConfig({ station: { language: lang } }).station.language).toBe(lang);
      expect(parseConfig({}, { PPS_EDGE_STATION_LANGUAGE: lang }).station.language).toBe(lang);
    }
    expect(failure(() => parseConfig({ station: { language: "it" } })).paths).toEqual(["station.language"]);
    expect(failure(() => parseConfig({}, { PPS_EDGE_STATION_LANGUAGE: "EN" })).paths).toEqual([
      "station.language",
    ]);
  });

  it("an operator chooses each language in turn, kept with their name for the next login", async () => {
    await ok(act({ type: "login", user: "alice" }));
    for (const lang of LANGUAGES) {
      await ok(act({ type: "language", lang }));
      expect((await screen()).lang).toBe(lang);
    }
    await ok(act({ type: "language", lang: "cs" }));
    await ok(act({ type: "logout" }));
    const out = await screen();
    expect([out.operator, out.lang]).toEqual([null, "pl"]);
    await ok(act({ type: "login", user: "alice" }));
    expect((await screen()).lang).toBe("cs");
    // null: back to the station's
    await ok(act({ type: "language", lang: null }));
    expect((await screen()).lang).toBe("pl");
  });

  it("an unknown language is refused with 400 naming `lang`, and the screen keeps its language", async () => {
    await ok(act({ type: "language", lang: "tr" }));
    for (const lang of ["it", "EN", "", 7]) {
      const res = await act({ type: "language", lang });
      expect(res.status, String(lang)).toBe(400);
      const body = (await res.json()) as { code: string; errors: Array<{ path: string }> };
      expect(body.code).toBe("validation_failed");
      expect(body.errors.map((e) => e.path)).toContain("lang");
    }
    expect((await screen()).lang).toBe("tr");
  });

  it("the chooser's list names each language in its own language, and each catalogue is served", async () => {
    const res = await t.request("/screen/assets/languages");
    expect(await res.json()).toEqual({
      en: "English",
      de: "Deutsch",
      pl: "Polski",
      cs: "Čeština",
      nl: "Nederlands",
      fr: "Français",
      es: "Español",
      tr: "Türkçe",
    });
    for (const lang of LANGUAGES) {
      const cat = (await (await t.request(`/screen/assets/messages/${lang}`)).json()) as Record<
        string,
        string
      >;
      expect(cat["ui.language_name"]).toBeTruthy();
    }
    const missing = await t.request("/screen/assets/messages/it");
    expect(missing.status).toBe(404);
    const body = (await missing.json()) as { code: string; errors: Array<{ path: string; message: string }> };
    expect(body.code).toBe("not_found");
    expect(body.errors[0]).toEqual({ path: "lang", message: `one of ${LANGUAGES.join(", ")}` });
  });
});
