import { beforeAll, describe, expect, it } from "vitest";
import { gs1CheckDigit } from "../../../src/domain/gs1.js";
import { olpnFault } from "../../../src/domain/olpn-symbol.js";
import { type LabelFonts, labelFonts } from "../../../src/labels/label-fonts.js";
import {
  type LabelData,
  MEDIA_4X6,
  MEDIA_A6,
  renderShippingLabel,
} from "../../../src/labels/shipping-label.js";
import { deadline } from "../../support/deadline.js";
import { dmtx, rasterise, zbar } from "../../support/label-decode.js";
import { tempDir } from "../../support/temp-dirs.js";

/**
 * Every OLPN the label accepts decodes at 203 dpi with real decoders (docs/decisions.md#olpn-length-on-the-agents-label):
 * the label rasterised by pdftoppm, the barcode read by zbarimg, the DataMatrix by dmtxread.
 */
const dir = tempDir("pps-edge-label-decode-");
let fonts: LabelFonts;
beforeAll(async () => {
  fonts = await labelFonts();
});

const base: LabelData = {
  externalServiceRequestId: "PP-1",
  olpn: "X",
  orderNumber: "O-1",
  shippingAddress: "Jane Roe\n1 Main Street\n10115 Berlin\nGermany",
  packingBoxId: "X",
  packingBoxType: "M",
  station: "7/3",
  lines: [{ product: "PK-1", description: "Blue mug", quantity: 2 }],
  printedAt: "2026-11-21T10:00:00.000Z",
};

const MIXED = "KARTON-0A1b2C3d4E5f6G7";
const DIGITS = "12345678901234567890123456789012345678901";

/**
 * The OLPNs of 1 to the most characters the label carries: 19 of any kind; digits up to 38, but for 37
 * (18 pairs, a change of subset and the odd digit make 20 symbol characters).
 */
function olpns(): string[] {
  const list: string[] = [];
  for (let n = 1; n <= 19; n++) list.push(MIXED.slice(0, n));
  for (let n = 1; n <= 38; n++) if (n !== 37) list.push(DIGITS.slice(0, n));
  return list;
}

/** Renders, rasterises and decodes one label: what zbarimg and dmtxread read. */
async function decode(olpn: string, media = MEDIA_4X6) {
  const name = `${media === MEDIA_A6 ? "a6" : "4x6"}-${olpn.length}-${olpn.replace(/[^A-Za-z0-9]/g, "_")}`;
  const png = await rasterise(
    dir,
    name,
    await renderShippingLabel({ ...base, olpn, packingBoxId: olpn }, media, fonts),
  );
  return { symbols: await zbar(png), matrix: await dmtx(png) };
}

describe("the label's barcodes at 203 dpi", () => {
  it(
    "decode for every OLPN of 1 to 19 characters and 1 to 38 digits, bar and DataMatrix: 100%",
    async () => {
      const all = olpns();
      expect(all.every((o) => olpnFault(o) === undefined)).toBe(true);
      const failed: string[] = [];
      for (const olpn of all) {
        const { symbols, matrix } = await decode(olpn);
        if (symbols.length !== 1 || symbols[0]?.data !== olpn || symbols[0]?.modifiers !== "")
          failed.push(`${olpn}: zbar read ${JSON.stringify(symbols)}`);
        if (matrix !== `${olpn}|PP-1`) failed.push(`${olpn}: dmtx read ${JSON.stringify(matrix)}`);
      }
      expect(failed).toEqual([]);
      expect(all.length).toBe(56);
      expect(olpnFault(DIGITS.slice(0, 37))).toMatch(/needs 20 Code 128 characters/);
    },
    deadline(120_000),
  );

  it(
    "print an SSCC-18 as GS1-128: zbar reports FNC1 first (GS1) and the data as AI 00 and the 18 digits",
    async () => {
      const body = "03456789012345678";
      const sscc = `${body}${gs1CheckDigit(body)}`;
      for (const media of [MEDIA_4X6, MEDIA_A6]) {
        const { symbols, matrix } = await decode(sscc, media);
        expect(symbols).toEqual([{ data: `00${sscc}`, modifiers: "GS1" }]);
        expect(matrix).toBe(`${sscc}|PP-1`);
      }
      // the same digits with a wrong check digit are no SSCC: plain Code 128
      const wrong = `${body}${(gs1CheckDigit(body) + 1) % 10}`;
      expect((await decode(wrong)).symbols).toEqual([{ data: wrong, modifiers: "" }]);
    },
    deadline(60_000),
  );

  it(
    "decode on A6 too, with the longest OLPNs and a closed box's suffix",
    async () => {
      for (const olpn of [
        MIXED.slice(0, 19),
        DIGITS.slice(0, 38),
        `${MIXED.slice(0, 16)}-99`,
        `${DIGITS.slice(0, 30)}-99`,
      ]) {
        const { symbols, matrix } = await decode(olpn, MEDIA_A6);
        expect(symbols.map((s) => s.data)).toEqual([olpn]);
        expect(matrix).toBe(`${olpn}|PP-1`);
      }
    },
    deadline(60_000),
  );

  it(
    "carry the order id in the DataMatrix as given: ISO 8859-1 as is, other text as UTF-8 behind ECI 000026",
    async () => {
      for (const [id, read] of [
        ["ZAMÓWIENIE-1", (s: string) => s],
        // dmtxread ignores the ECI: it prints a 0x1A for it and each byte as an ISO 8859-1 character
        [
          "ZAMÓWIENIE-żółw-^1",
          (s: string) => Buffer.from(s.startsWith("\u001a") ? s.slice(1) : s, "latin1").toString("utf8"),
        ],
      ] as const) {
        const png = await rasterise(
          dir,
          `dm-${id.length}`,
          await renderShippingLabel({ ...base, externalServiceRequestId: id }, MEDIA_4X6, fonts),
        );
        expect(read(await dmtx(png))).toBe(`X|${id}`);
      }
    },
    deadline(30_000),
  );

  it("refuse, in words, an OLPN the label cannot carry", async () => {
    await expect(
      renderShippingLabel({ ...base, olpn: MIXED.slice(0, 20) }, MEDIA_4X6, fonts),
    ).rejects.toThrow(/the OLPN 'KARTON-0A1b2C3d4E5f6' needs 20 Code 128 characters/);
    await expect(renderShippingLabel({ ...base, olpn: "KARTON-Ż-001" }, MEDIA_4X6, fonts)).rejects.toThrow(
      /holds 'Ż' \(U\+017B\)/,
    );
  });
});
