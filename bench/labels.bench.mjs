// Issue 39: what the agent's own shipping label costs to render (labels/shipping-label.ts: DejaVu Sans
// embedded as a subset, the address fitted, bwip-js barcodes), against the same content rendered with
// bare pdf-lib, in one run: the cases take turns, BENCH_LABELS_N renders each (default 200) after
// BENCH_LABELS_WARMUP (default 20), so a shared machine's load falls on all of them alike.
//
// The baselines, exactly:
// - "pdf-lib Helvetica + barcodes": one 4×6 page, the same strings drawn at fixed places with the
//   standard Helvetica and Helvetica-Bold (nothing embedded, no wrapping, no fitting, no script check),
//   and the same two barcodes made by bwip-js as PNG at the same dots per module (Code 128 of the OLPN
//   at 3, DataMatrix at 4), embedded and drawn;
// - "pdf-lib Helvetica text only": the same without the barcodes.
// The own label renders the same data (a German address Helvetica can encode too) with the fonts read
// once before the run, as the agent does. The figures are p50/p95 per render and own/baseline ratios.
//
// To add a figure (the ZPL render of the own label, a carrier label's fetch-to-printed time), push a
// case onto LABEL_CASES below: `{ name, what, run }`, `run()` doing one render or one fetch-and-print
// and resolving when done; it is measured in the same turns and its ratio to each baseline reported.

import { join } from "node:path";
import { pathToFileURL } from "node:url";
import bwipjs from "bwip-js";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { agentDir, summary } from "./lib.mjs";

const N = Number(process.env.BENCH_LABELS_N ?? 200);
const WARMUP = Number(process.env.BENCH_LABELS_WARMUP ?? 20);

const DATA = {
  externalServiceRequestId: "PP-20261121-0042",
  olpn: "KARTON-000000042",
  orderNumber: "O-2026-11-0042",
  shippingAddress: "Jana Müller\nGroße Hamburger Straße 17, Hinterhaus 3. OG\n10115 Berlin\nDeutschland",
  packingBoxId: "KARTON-000000042",
  packingBoxType: "M",
  station: "7/3",
  lines: [
    { product: "PK-1", description: "Blue ceramic mug 350 ml", quantity: 2 },
    { product: "TS-42 blue L", description: "Cotton T-shirt, blue, L", quantity: 1 },
    { product: "BK-7", description: "Notebook A5, dotted", quantity: 3 },
  ],
  printedAt: "2026-11-21T10:00:00.000Z",
};

const load = (file) => import(pathToFileURL(join(agentDir(), "dist", file)).href);

/** The same content with bare pdf-lib: standard fonts, fixed places, optionally the same barcodes. */
async function barePdfLib(data, withBarcodes) {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([288, 432]);
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let y = 405;
  page.drawText("SHIP TO", { x: 14, y, size: 9, font: bold });
  for (const line of data.shippingAddress.split("\n")) {
    y -= 16;
    page.drawText(line, { x: 14, y, size: 12, font: regular });
  }
  for (const [k, v] of [
    ["Order:", data.orderNumber],
    ["Box:", `${data.packingBoxId} / ${data.packingBoxType}`],
  ]) {
    y -= 11;
    page.drawText(k, { x: 14, y, size: 8, font: bold });
    page.drawText(v, { x: 82, y, size: 8, font: regular });
  }
  const dot = 72 / 203;
  if (withBarcodes) {
    const code = await pdf.embedPng(
      await bwipjs.toBuffer({ bcid: "code128", text: data.olpn, scaleX: 3, scaleY: 1, height: 1 }),
    );
    page.drawImage(code, { x: 20, y: y - 80, width: code.width * dot, height: 62 });
    const dm = await pdf.embedPng(
      await bwipjs.toBuffer({
        bcid: "datamatrix",
        text: `${data.olpn}|${data.externalServiceRequestId}`,
        scale: 4,
      }),
    );
    page.drawImage(dm, { x: 200, y: 24, width: dm.width * dot, height: dm.height * dot });
  }
  page.drawText(data.olpn, { x: 100, y: y - 92, size: 9, font: regular });
  y -= 120;
  for (const l of data.lines) {
    y -= 10;
    page.drawText(`${l.quantity} x ${l.description} (${l.product})`, { x: 14, y, size: 8, font: regular });
  }
  page.drawText(`Packed at ${data.station}  ${data.printedAt}`, { x: 14, y: 14, size: 7, font: regular });
  return pdf.save();
}

/** The cases measured in turns; the first two are the baselines the others are divided by. */
export async function labelCases() {
  const [{ renderShippingLabel }, { labelFonts }, { MEDIA_4X6 }, { zplLabelDocument }] = await Promise.all([
    load("labels/shipping-label.js"),
    load("labels/label-fonts.js"),
    load("labels/media.js"),
    load("labels/zpl-label.js"),
  ]);
  const fonts = await labelFonts();
  return [
    { name: "pdf-lib Helvetica + barcodes", what: "baseline", run: () => barePdfLib(DATA, true) },
    { name: "pdf-lib Helvetica text only", what: "baseline", run: () => barePdfLib(DATA, false) },
    {
      name: "own label PDF",
      what: "renderShippingLabel, 4×6, DejaVu Sans subset embedded",
      run: () => renderShippingLabel(DATA, MEDIA_4X6, fonts),
    },
    {
      // the printer draws the text and barcodes itself: the agent only writes the commands
      name: "own label ZPL",
      what: "zplLabelDocument, 4×6, the printer's own font and barcodes",
      run: async () => zplLabelDocument(DATA, MEDIA_4X6).bytes,
    },
  ];
}

/** Other figures hook in here (see the head of this file). */
export const LABEL_CASES = [];

export async function run() {
  const cases = [...(await labelCases()), ...LABEL_CASES];
  const times = new Map(cases.map((c) => [c.name, []]));
  const bytes = new Map();
  for (let i = 0; i < WARMUP + N; i++) {
    for (const c of cases) {
      const t0 = performance.now();
      const out = await c.run();
      const ms = performance.now() - t0;
      if (i >= WARMUP) times.get(c.name).push(ms);
      if (out?.length) bytes.set(c.name, out.length);
    }
  }
  const stats = Object.fromEntries(
    cases.map((c) => {
      const s = summary(times.get(c.name));
      const p95 = [...times.get(c.name)].sort((a, b) => a - b)[Math.ceil(0.95 * N) - 1];
      return [
        c.name,
        {
          what: c.what,
          p50Ms: s.p50,
          p95Ms: Math.round(p95 * 1000) / 1000,
          pdfBytes: bytes.get(c.name) ?? null,
        },
      ];
    }),
  );
  const [full, textOnly] = cases;
  const ratios = Object.fromEntries(
    cases
      .filter((c) => c.what !== "baseline")
      .map((c) => [
        c.name,
        {
          p50VsHelveticaWithBarcodes: round2(stats[c.name].p50Ms / stats[full.name].p50Ms),
          p95VsHelveticaWithBarcodes: round2(stats[c.name].p95Ms / stats[full.name].p95Ms),
          p50VsHelveticaTextOnly: round2(stats[c.name].p50Ms / stats[textOnly.name].p50Ms),
        },
      ]),
  );
  // the carrier's label, fetch to printed (labels-carrier.mjs): HTTPS on loopback, the file printer
  const { carrierCase } = await import("./labels-carrier.mjs");
  const carrier = await carrierCase(Math.min(N, 100));
  return { config: { renders: N, warmup: WARMUP }, result: { cases: stats, ratios, carrier } };
}

const round2 = (x) => Math.round(x * 100) / 100;

/** The figures run.mjs compares between runs (compare.mjs). */
export function figures(r) {
  const own = r.result.cases["own label PDF"];
  const base = r.result.cases["pdf-lib Helvetica + barcodes"];
  return {
    "own label render p50 ms": { value: own.p50Ms, better: "lower" },
    "own label render p95 ms": { value: own.p95Ms, better: "lower" },
    "bare pdf-lib render p50 ms": { value: base.p50Ms, better: "lower", reference: true },
    "own label ZPL render p50 ms": { value: r.result.cases["own label ZPL"].p50Ms, better: "lower" },
    "carrier PDF fetch to printed p50 ms": { value: r.result.carrier.fetchToPrintedMsP50, better: "lower" },
  };
}
