/**
 * A carrier's label server for tests: a real HTTPS server on 127.0.0.1 with a throwaway certificate
 * (`localhost` and 127.0.0.1, made by openssl: certificates.ts) that serves labels as a carrier would,
 * and the ways a carrier goes wrong: slow, the wrong type, too big, 404, redirects. Each path's answer
 * can be changed while it runs (`serve`), so a test can fix the server and reprint.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import UPNG from "@pdf-lib/upng";
import { PDFDocument } from "pdf-lib";
import { makeCertificate, type TestCertificate } from "./certificates.js";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface CarrierLabelServer {
  /** `https://localhost:<port>` */
  origin: string;
  /** `https://127.0.0.1:<port>`: the same server under another host name. */
  originByAddress: string;
  port: number;
  cert: TestCertificate;
  /** The CA a client must trust (the certificate is its own). */
  ca: Buffer;
  /** The bytes served at /label.pdf, /label.zpl and /label.png. */
  pdf: Uint8Array;
  zpl: Uint8Array;
  png: Uint8Array;
  /** Paths requested, in order (without their query). */
  requests: string[];
  serve(path: string, handler: Handler): void;
  close(): Promise<void>;
}

export const ZPL_LABEL =
  "^XA\n^FO50,50^A0N,40,40^FDCARRIER 1Z999^FS\n^BY3^FO50,120^BCN,100,Y,N,N^FD1Z999AA10123456784^FS\n^XZ\n";

/** A 4×6 label at 203 dpi (812×1218, pHYs 203 dpi): white with a black bar at the top left. */
export function pngLabel(width = 812, height = 1218, dpi: number | undefined = 203): Uint8Array {
  const rgba = new Uint8Array(width * height * 4).fill(255);
  for (let y = 10; y < 60; y++)
    for (let x = 10; x < 410; x++) rgba.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
  const lib = (UPNG as unknown as { default?: typeof UPNG }).default ?? UPNG;
  const png = new Uint8Array(lib.encode([rgba.buffer], width, height, 0));
  return dpi === undefined ? png : withPhys(png, dpi);
}

/** The PNG with a `pHYs` chunk (pixels per metre) after IHDR. */
function withPhys(png: Uint8Array, dpi: number): Uint8Array {
  const ppm = Math.round(dpi / 0.0254);
  const data = Buffer.alloc(9);
  data.writeUInt32BE(ppm, 0);
  data.writeUInt32BE(ppm, 4);
  data[8] = 1;
  const type = Buffer.from("pHYs", "latin1");
  const len = Buffer.alloc(4);
  len.writeUInt32BE(9);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  const ihdrEnd = 8 + 4 + 4 + 13 + 4;
  return Buffer.concat([png.subarray(0, ihdrEnd), len, type, data, crc, png.subarray(ihdrEnd)]);
}

function crc32(buf: Uint8Array): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

async function pdfLabel(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([288, 432]).drawText("CARRIER LABEL 1Z999", { x: 20, y: 400, size: 14 });
  return doc.save();
}

const send =
  (type: string, bytes: Uint8Array | string, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(bytes) });
    res.end(bytes);
  };

export const answers = {
  send,
  /** Answers after `ms` (a carrier slower than the timeout). */
  slow:
    (ms: number, then: Handler): Handler =>
    (req, res) => {
      const t = setTimeout(() => then(req, res), ms);
      res.on("close", () => clearTimeout(t));
    },
  /** Streams `total` bytes of a PDF-looking body in 64 KiB chunks with no length given. */
  stream:
    (total: number): Handler =>
    (_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf" });
      let sent = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      chunk.write("%PDF-1.7\n");
      const more = () => {
        while (sent < total && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return res.once("drain", more);
        }
        res.end();
      };
      more();
    },
  redirect:
    (location: string, status = 302): Handler =>
    (_req, res) => {
      res.writeHead(status, { location });
      res.end();
    },
};

export async function startCarrierLabelServer(): Promise<CarrierLabelServer> {
  const cert = makeCertificate();
  const handlers = new Map<string, Handler>();
  const requests: string[] = [];
  const server: Server = createServer(
    { cert: readFileSync(cert.certFile), key: readFileSync(cert.keyFile) },
    (req, res) => {
      const path = new URL(req.url ?? "/", "https://x").pathname;
      requests.push(path);
      const h = handlers.get(path);
      if (h) h(req, res);
      else send("text/html", "<html><body>Not found</body></html>", 404)(req, res);
    },
  );
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const port = (server.address() as AddressInfo).port;
  const pdf = await pdfLabel();
  const zpl = Buffer.from(ZPL_LABEL, "latin1");
  const png = pngLabel();
  handlers.set("/label.pdf", send("application/pdf", pdf));
  handlers.set("/label.zpl", send("application/zpl", zpl));
  handlers.set("/label.png", send("image/png", png));
  return {
    origin: `https://localhost:${port}`,
    originByAddress: `https://127.0.0.1:${port}`,
    port,
    cert,
    ca: readFileSync(cert.certFile),
    pdf,
    zpl,
    png,
    requests,
    serve: (path, handler) => handlers.set(path, handler),
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}
