import { beforeAll, describe, expect, it } from "vitest";
import { type LabelFonts, labelFonts } from "../../../src/labels/label-fonts.js";
import {
  type LabelData,
  MEDIA_4X6,
  MEDIA_A6,
  renderShippingLabel,
} from "../../../src/labels/shipping-label.js";
import { deadline } from "../../support/deadline.js";
import { pdfText, rightmostInk } from "../../support/label-decode.js";
import { tempDir } from "../../support/temp-dirs.js";

/**
 * The label's text read back out of the PDF by pdftotext, and its width at 203 dpi
 * (docs/decisions.md#label-scripts, docs/hardware.md#label-printers).
 */
const dir = tempDir("pps-edge-label-text-");
let fonts: LabelFonts;
beforeAll(async () => {
  fonts = await labelFonts();
});

const base: LabelData = {
  externalServiceRequestId: "PP-1",
  olpn: "BOX-1",
  orderNumber: "O-1",
  packingBoxId: "BOX-1",
  station: "7/3",
  lines: [{ product: "PK-1", description: "Blue mug", quantity: 1 }],
  printedAt: "2026-11-21T10:00:00.000Z",
};

const ws = (s: string) => s.replace(/\s+/g, " ").trim();

const PRINTED: Array<[string, string]> = [
  ["Polish", "Zofia Żółć-Gęślińska\nul. Źródlana 12 m. 4\n00-950 Warszawa\nPolska"],
  ["Czech", "Jiří Dvořák\nŘeznická 17\n110 00 Praha 1 – Nové Město\nČeská republika"],
  ["Turkish", "Ayşe Gül Işıkoğlu\nİstiklal Caddesi No: 12, Beyoğlu\n34433 İstanbul\nTürkiye"],
  ["Greek", "Γιώργος Παπαδόπουλος\nΟδός Ερμού 25\n105 63 Αθήνα\nΕλλάδα"],
  ["Cyrillic", "Иван Петрович Сидоров\nул. Тверская, д. 7, кв. 15\n125009 Москва\nРоссия"],
];

const REFUSED: Array<[string, string, RegExp]> = [
  [
    "Chinese",
    "张伟\n北京市朝阳区建国路88号\n100022",
    /^the shipping address holds Chinese characters \(张, 伟, 北, 京, 市, …\), which the label cannot print$/,
  ],
  [
    "Japanese",
    "山田太郎\n東京都千代田区丸の内1-1\n〒100-0005",
    /^the shipping address holds Japanese characters \(山, 田, 太, 郎, 東, …\), which the label cannot print$/,
  ],
  [
    "Arabic",
    "محمد أحمد\nشارع التحرير 15\nالقاهرة",
    /^the shipping address holds Arabic characters \(م, ح, د, أ, ش, …\), which the label cannot print \(its letters need joining and right-to-left ordering\)$/,
  ],
];

describe("the label's text", () => {
  it.each(PRINTED)(
    "prints a %s address exactly: pdftotext reads back what was asked",
    async (script, address) => {
      const pdf = await renderShippingLabel({ ...base, shippingAddress: address }, MEDIA_4X6, fonts);
      expect(await pdfText(dir, script, pdf)).toContain(ws(address));
    },
    deadline(20_000),
  );

  it.each(REFUSED)(
    "refuses the %s address in words, naming the field and the script",
    async (_, address, words) => {
      await expect(
        renderShippingLabel({ ...base, shippingAddress: address }, MEDIA_4X6, fonts),
      ).rejects.toThrow(words);
    },
  );

  it("fits five lines of 60 characters, every line read back; refuses an absurd address in words", async () => {
    const five = Array.from({ length: 5 }, (_, i) =>
      `Line ${i + 1} ${"Marszałkowska ".repeat(4)}`.slice(0, 60),
    ).join("\n");
    for (const media of [MEDIA_4X6, MEDIA_A6]) {
      const pdf = await renderShippingLabel({ ...base, shippingAddress: five }, media, fonts);
      expect(await pdfText(dir, `five-${media.widthPt}`, pdf)).toContain(ws(five));
    }
    const absurd = Array.from(
      { length: 40 },
      (_, i) => `Line ${i + 1} of an address no label can carry`,
    ).join("\n");
    await expect(renderShippingLabel({ ...base, shippingAddress: absurd }, MEDIA_4X6, fonts)).rejects.toThrow(
      /^the shipping address does not fit the label: 40 lines at 8 pt, room for \d+$/,
    );
  });

  it("names every item with its description and counts the lines that do not fit", async () => {
    const lines = Array.from({ length: 40 }, (_, i) => ({
      product: `SKU-${i + 1}`,
      description: `Cotton shirt, blue, size ${i + 1}`,
      quantity: 1,
    }));
    const text = await pdfText(dir, "items", await renderShippingLabel({ ...base, lines }, MEDIA_4X6, fonts));
    expect(text).toContain("1 × Cotton shirt, blue, size 1 (SKU-1)");
    const more = /\+ (\d+) more lines/.exec(text);
    expect(more).not.toBeNull();
    const shown = lines.filter((l) => text.includes(`(${l.product})`)).length;
    expect(shown + Number(more?.[1])).toBe(40);
  });

  it(
    "prints nothing beyond 812 dots (101.6 mm) from the left edge on A6 at 203 dpi",
    async () => {
      const wide: LabelData = {
        ...base,
        olpn: "KARTON-0A1b2C3d4E5",
        packingBoxType: "W".repeat(200),
        carrierLabelUrl: `https://carrier.example/${"x".repeat(300)}`,
        shippingAddress: `${"W".repeat(120)}\nMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM`,
        lines: [{ product: "W".repeat(80), description: "W".repeat(80), quantity: 1 }],
      };
      const a6 = await rightmostInk(dir, "a6-wide", await renderShippingLabel(wide, MEDIA_A6, fonts));
      expect(a6.width).toBeGreaterThan(812);
      expect(a6.column).toBeGreaterThan(700);
      expect(a6.column).toBeLessThan(812);
      const sscc = await rightmostInk(
        dir,
        "a6-sscc",
        await renderShippingLabel({ ...wide, olpn: "034567890123456786" }, MEDIA_A6, fonts),
      );
      expect(sscc.column).toBeLessThan(812);
    },
    deadline(30_000),
  );
});
