// The carrier's label, fetch to printed: a carrier label server on loopback (HTTPS, a throwaway
// certificate made by openssl, trusted through printing.carrierLabels.caFile as a station would trust a
// carrier's private CA) and the agent's carrier label path as built (dist/: the fetch with the address
// guard, the format check, the conversion the printer needs, the file printer writing <job>.<ext>).
// One figure per served format: PDF and ZPL written as served, PNG (812×1218, 4×6 at 203 dpi) drawn on
// a PDF page. Called by the labels benchmark (`carrierCase()`); run alone with
// `node bench/labels-carrier.mjs` after `npm run build`. BENCH_CARRIER_LABELS: labels per format (200).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pino from "pino";
import { agentDir, percentile } from "./lib.mjs";

const N = Number(process.env.BENCH_CARRIER_LABELS ?? 200);

const load = (file) => import(pathToFileURL(join(agentDir(), "dist", file)).href);

/** A throwaway certificate for localhost, its own CA. */
function certificate(dir) {
  const cert = join(dir, "carrier.crt");
  const key = join(dir, "carrier.key");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"],
      ...["-days", "1", "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
      ...["-keyout", key, "-out", cert],
    ],
    { stdio: "ignore" },
  );
  return { cert, key };
}

/** The three labels a carrier serves: a PDF page with text, ZPL, and a 4×6 PNG at 203 dpi. */
async function labels() {
  const { PDFDocument, StandardFonts } = await import("pdf-lib");
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([288, 432]).drawText("CARRIER 1Z999AA10123456784", { x: 20, y: 400, size: 12, font });
  const pdf = await doc.save();
  const zpl = Buffer.from(
    "^XA^FO50,50^A0N,40,40^FDCARRIER^FS^BY3^FO50,120^BCN,100,Y,N,N^FD1Z999AA10123456784^FS^XZ\n",
  );
  const upng = (await import("@pdf-lib/upng")).default;
  const UPNG = upng.default ?? upng;
  // barcode-like bars of pseudo-random widths down the label, so the PNG compresses as a real one does
  const rgba = new Uint8Array(812 * 1218 * 4).fill(255);
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  for (let band = 0; band < 12; band++) {
    const bars = [];
    for (let x = 20; x < 792; x += 2 + Math.floor(next() * 8)) if (next() < 0.5) bars.push(x);
    for (let y = 20 + band * 98; y < 100 + band * 98; y++)
      for (const x of bars) rgba.fill(0, (y * 812 + x) * 4, (y * 812 + x + 2) * 4 - 1);
  }
  const png = new Uint8Array(UPNG.encode([rgba.buffer], 812, 1218, 0));
  return {
    pdf: { type: "application/pdf", bytes: pdf },
    zpl: { type: "application/zpl", bytes: zpl },
    png: { type: "image/png", bytes: png },
  };
}

const ms = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const r = (x) => Math.round(x * 100) / 100;
  return { fetchToPrintedMsP50: r(percentile(s, 50)), p95: r(percentile(s, 95)), n: s.length };
};

/**
 * Fetch to printed, per format; the top-level figures are the PDF's (a carrier's usual answer), with
 * each format's under `byFormat`.
 */
export async function carrierCase(n = N) {
  const dir = mkdtempSync(join(tmpdir(), "pps-edge-bench-carrier-"));
  const { cert, key } = certificate(dir);
  const served = await labels();
  const server = createServer({ cert: readFileSync(cert), key: readFileSync(key) }, (req, res) => {
    const what = served[new URL(req.url ?? "/", "https://x").pathname.slice(1)];
    if (!what) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": what.type, "content-length": what.bytes.length });
    res.end(what.bytes);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const port = server.address().port;
  try {
    const [
      { carrierLabelFetchFor },
      { createCarrierLabels },
      { filePrinter },
      { guardedLookup },
      { MEDIA_4X6 },
    ] = await Promise.all([
      load("labels/carrier-label-fetch.js"),
      load("labels/carrier-label-job.js"),
      load("devices/drivers/label-printer/label-printer.js"),
      load("webhook-delivery/address-guard.js"),
      load("labels/media.js"),
    ]);
    const log = pino({ level: "silent" });
    const config = {
      allowHosts: ["localhost"],
      caFile: cert,
      timeoutMs: 10_000,
      maxBytes: 5 * 1024 * 1024,
      allowHttp: false,
      allowLoopback: true,
      allowLinkLocal: false,
      packingSlip: false,
    };
    const fetch = carrierLabelFetchFor(config, (allow) => guardedLookup(allow), log);
    const printer = filePrinter(join(dir, "labels"));
    const carrier = createCarrierLabels({ fetch, printer, media: MEDIA_4X6, packingSlip: false, log });
    const byFormat = {};
    for (const format of ["pdf", "zpl", "png"]) {
      const data = {
        externalServiceRequestId: "B1",
        olpn: "BOX",
        station: "1/1",
        lines: [],
        printedAt: new Date().toISOString(),
        carrierLabelUrl: `https://localhost:${port}/${format}`,
      };
      // warm-up: the first label loads pdf-lib and opens the TLS session code
      for (let i = 0; i < 5; i++) await carrier.print(data, { name: `warm-${format}-${i}` }, async () => {});
      const times = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await carrier.print(data, { name: `${format}-${i}` }, async () => {});
        times.push(performance.now() - t0);
      }
      byFormat[format] = { ...ms(times), bytes: served[format].bytes.length };
    }
    return { ...byFormat.pdf, byFormat };
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await carrierCase(), null, 2));
}
