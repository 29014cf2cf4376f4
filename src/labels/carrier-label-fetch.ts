/**
 * Fetches a carrier's label (docs/station.md#carrier-labels, docs/security.md#carrier-label-urls): HTTPS
 * with certificate verification (the system's CAs and `printing.carrierLabels.caFile`), one deadline for
 * the whole fetch, the size limit enforced while the body is read, at most a few redirects, each one's
 * target checked again (allow-list and address rule), and every address a name resolves to judged at
 * connect time by the address guard webhook delivery uses (given in as `guard`: the one owner of that
 * rule, webhook-delivery/address-guard.ts). What it got is checked by carrier-label-format.ts.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { rootCertificates } from "node:tls";
import type { Logger } from "pino";
import type { CarrierLabelsConfig } from "../config/carrier-labels.schema.js";
import { readPem } from "../config/certificate-files.js";
import type { LabelFormat } from "../devices/drivers/label-printer/label-printer.js";
import type { AddressAllowance } from "../domain/webhook-address.js";
import { carrierLabelFormat } from "./carrier-label-format.js";
import { type CarrierUrlRules, checkCarrierUrl, hostOf, urlForLog } from "./carrier-label-url.js";

/** Redirects followed before the fetch gives up (a carrier's label link may pass a CDN or two). */
export const MAX_REDIRECTS = 3;

export interface FetchedLabel {
  format: LabelFormat;
  bytes: Uint8Array;
  host: string;
  status: number;
  ms: number;
}

export type CarrierLabelFetch = (url: string) => Promise<FetchedLabel>;

export interface CarrierFetchOptions {
  rules: CarrierUrlRules;
  /** PEM of an extra CA, trusted besides the system's. */
  ca?: Buffer | undefined;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects?: number;
  /** The address guard's lookup (webhook-delivery/address-guard.ts#guardedLookup). */
  lookup: LookupFunction;
  log: Logger;
}

/** A fetch that did not give a label; its message is the cause, in words, for the screen. */
export class CarrierLabelUnavailable extends Error {
  override name = "CarrierLabelUnavailable";
  /** The host and status of the answer that was not a label, when there was one (for the log). */
  answer?: { host: string; status: number } | undefined;
  constructor(cause: string, answer?: { host: string; status: number }) {
    super(`the carrier's label could not be fetched: ${cause}`);
    this.answer = answer;
  }
}

/** One answer: its status and headers; its body read only when it is the label. */
interface Answer {
  res: IncomingMessage;
  status: number;
}

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME|ERR_TLS|SSL/;

/** A network error in words. */
function networkCause(err: NodeJS.ErrnoException, url: URL): string {
  const where = url.host;
  if (err.code && TLS_CODES.test(err.code))
    return `the certificate of ${where} is not trusted (${err.code}); its CA can be added with printing.carrierLabels.caFile`;
  if (err.code === "ECONNREFUSED") return `${where} refused the connection`;
  if (err.code === "ENOTFOUND" || err.code === "EAI_AGAIN") return `${url.hostname} was not found (DNS)`;
  if (err.code === "ECONNRESET") return `${where} closed the connection`;
  // the address guard's refusal names the host and why (webhook-delivery/address-guard.ts)
  return err.code ? `${where}: ${err.code}` : err.message;
}

export function createCarrierLabelFetch(opts: CarrierFetchOptions): CarrierLabelFetch {
  // keep-alive off: every hop opens its own connection, so the guard judges every address it reaches
  const base = { keepAlive: false, lookup: opts.lookup };
  const https = new HttpsAgent({
    ...base,
    ...(opts.ca ? { ca: [...rootCertificates, opts.ca.toString()] } : {}),
  });
  const http = new HttpAgent(base);
  const maxRedirects = opts.maxRedirects ?? MAX_REDIRECTS;

  function get(url: URL, signal: AbortSignal): Promise<Answer> {
    return new Promise((ok, fail) => {
      const secure = url.protocol === "https:";
      const req = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: "GET",
          agent: secure ? https : http,
          signal,
          headers: { accept: "application/pdf, application/zpl, image/png;q=0.9, */*;q=0.1" },
        },
        (res) => ok({ res, status: res.statusCode ?? 0 }),
      );
      req.on("error", (err) => fail(new CarrierLabelUnavailable(networkCause(err, url))));
      req.end();
    });
  }

  /** The body, refused as soon as it passes maxBytes. */
  function body(res: IncomingMessage): Promise<Uint8Array> {
    return new Promise((ok, fail) => {
      let settled = false;
      const end = (err?: Error, bytes?: Uint8Array) => {
        if (settled) return;
        settled = true;
        if (err) {
          fail(err);
          res.destroy();
        } else ok(bytes as Uint8Array);
      };
      const tooBig = () =>
        new CarrierLabelUnavailable(
          `it is larger than ${opts.maxBytes} bytes (printing.carrierLabels.maxBytes)`,
        );
      const declared = Number(res.headers["content-length"]);
      if (Number.isFinite(declared) && declared > opts.maxBytes) return end(tooBig());
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (c: Buffer) => {
        size += c.length;
        if (size > opts.maxBytes) end(tooBig());
        else chunks.push(c);
      });
      res.on("end", () => end(undefined, new Uint8Array(Buffer.concat(chunks))));
      res.on("error", (err) => end(err));
      res.on("aborted", () => end(new CarrierLabelUnavailable("the connection ended before the label did")));
    });
  }

  async function hops(raw: string, signal: AbortSignal, started: number): Promise<FetchedLabel> {
    let next = raw;
    for (let hop = 0; ; hop++) {
      const checked = checkCarrierUrl(next, opts.rules);
      if ("refused" in checked)
        throw new CarrierLabelUnavailable(hop === 0 ? checked.refused : `redirected, and ${checked.refused}`);
      const url = checked.url;
      const { res, status } = await get(url, signal);
      const location = res.headers.location;
      if ([301, 302, 303, 307, 308].includes(status) && location) {
        res.resume();
        if (hop >= maxRedirects) throw new CarrierLabelUnavailable(`more than ${maxRedirects} redirects`);
        opts.log.info({ url: urlForLog(url), status }, "carrier label redirected");
        next = new URL(location, url).href;
        continue;
      }
      if (status !== 200) {
        res.resume();
        throw new CarrierLabelUnavailable(
          `${url.host} answered ${status} ${res.statusMessage ?? ""}`.trim(),
          {
            host: url.host,
            status,
          },
        );
      }
      const bytes = await body(res);
      const ms = Math.round(performance.now() - started);
      opts.log.info(
        { host: url.host, url: urlForLog(url), status, bytes: bytes.length, ms, redirects: hop },
        "carrier label fetched",
      );
      const format = carrierLabelFormat(res.headers["content-type"], bytes);
      if ("refused" in format) throw new CarrierLabelUnavailable(format.refused, { host: url.host, status });
      return { format: format.format, bytes, host: hostOf(url), status, ms };
    }
  }

  return async (raw) => {
    const started = performance.now();
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), opts.timeoutMs);
    try {
      return await hops(raw, abort.signal, started);
    } catch (err) {
      const cause = abort.signal.aborted
        ? new CarrierLabelUnavailable(
            `no label within ${opts.timeoutMs} ms (printing.carrierLabels.timeoutMs)`,
          )
        : err instanceof CarrierLabelUnavailable
          ? err
          : new CarrierLabelUnavailable(err instanceof Error ? err.message : String(err));
      let where = "";
      try {
        where = urlForLog(new URL(raw));
      } catch {}
      opts.log.warn(
        { ...cause.answer, url: where, ms: Math.round(performance.now() - started), cause: cause.message },
        "carrier label not fetched",
      );
      throw cause;
    } finally {
      clearTimeout(timer);
    }
  };
}

/** The fetch the config describes; `guard` builds the address guard's lookup for its allowance. */
export function carrierLabelFetchFor(
  config: CarrierLabelsConfig,
  guard: (allow: AddressAllowance) => LookupFunction,
  log: Logger,
): CarrierLabelFetch {
  const allow: AddressAllowance = {
    loopback: config.allowLoopback,
    linkLocal: config.allowLinkLocal,
    keys: {
      loopback: "printing.carrierLabels.allowLoopback",
      linkLocal: "printing.carrierLabels.allowLinkLocal",
    },
  };
  return createCarrierLabelFetch({
    rules: { allowHosts: config.allowHosts, allowHttp: config.allowHttp, allow },
    // a file that cannot be read stops the start, naming the key (config/certificate-files.ts)
    ca: config.caFile ? readPem(config.caFile, "printing.carrierLabels.caFile") : undefined,
    timeoutMs: config.timeoutMs,
    maxBytes: config.maxBytes,
    lookup: guard(allow),
    log,
  });
}
