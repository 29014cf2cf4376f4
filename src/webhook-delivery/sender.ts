/**
 * One webhook attempt over HTTP: the thin shell around the pure decisions of domain/webhook-delivery.ts.
 * It signs the envelope as committed with the Standard Webhooks scheme (standardwebhooks.com, v1) using
 * the `standardwebhooks` package, POSTs it on a kept-alive connection, and says how the attempt ended.
 * Redirects are not followed (node:http never does): a 3xx is a failure like any other non-2xx.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { Webhook } from "standardwebhooks";
import type { AddressAllowance } from "../domain/webhook-address.js";
import { isIpAddress, refusedAddress } from "../domain/webhook-address.js";
import { type Outcome, retryAfterMs } from "../domain/webhook-delivery.js";
import { VERSION } from "../version.js";
import { AddressRefused, guardedLookup, ownAddresses } from "./address-guard.js";

export interface SenderOptions {
  url: string;
  secret: string;
  timeoutMs: number;
  allow: AddressAllowance;
  /** The agent's own HTTP port: this computer's addresses on it are refused (the agent itself). */
  selfPort: number;
  /** PEM: CAs trusted for this endpoint, and the client certificate and key for mTLS. */
  tls?: { ca?: Buffer | undefined; cert?: Buffer | undefined; key?: Buffer | undefined };
  now(): number;
}

/** What goes out: the notification's id (the same on every retry) and its envelope, byte for byte. */
export interface Delivery {
  notificationId: string;
  payload: Buffer;
  /** `<index>/<count>` when the body is one part of a larger notification (docs/webhooks.md#body-size). */
  part?: string;
}

/** The Standard Webhooks headers of one attempt (docs/webhooks.md#headers). */
export function webhookHeaders(signer: Webhook, d: Delivery, at: number): Record<string, string> {
  return {
    "content-type": "application/json",
    "content-length": String(d.payload.length),
    "user-agent": `pps-edge/${VERSION}`,
    "webhook-id": d.notificationId,
    "webhook-timestamp": String(Math.floor(at / 1000)),
    "webhook-signature": signer.sign(d.notificationId, new Date(at), d.payload),
    ...(d.part === undefined ? {} : { "pps-edge-part": d.part }),
  };
}

/** The most of an error answer kept for the status (`lastError`). */
const ERROR_BODY_MAX = 200;

export function createSender(opts: SenderOptions) {
  const url = new URL(opts.url);
  const https = url.protocol === "https:";
  const signer = new Webhook(opts.secret);
  // one connection, kept alive: one request in flight per endpoint, in order
  const port = Number(url.port || (https ? 443 : 80));
  const self = port === opts.selfPort ? ownAddresses() : undefined;
  const agentOptions = { keepAlive: true, maxSockets: 1, lookup: guardedLookup(opts.allow, self) };
  const agent = https
    ? new HttpsAgent({ ...agentOptions, ...opts.tls, rejectUnauthorized: true })
    : new HttpAgent(agentOptions);
  const send = https ? httpsRequest : httpRequest;
  const literal = url.hostname.replace(/^\[|\]$/g, "");
  let inFlight: { destroy(err?: Error): void } | undefined;

  function answered(res: IncomingMessage, ok: (o: Outcome) => void): void {
    const status = res.statusCode ?? 0;
    const header = res.headers["retry-after"];
    const chunks: Buffer[] = [];
    let size = 0;
    res.on("data", (c: Buffer) => {
      if (size < ERROR_BODY_MAX) chunks.push(c);
      size += c.length;
    });
    res.on("end", () => ok({ kind: "answered", status, retryAfterMs: retryAfterMs(header, opts.now()) }));
    res.on("error", () => ok({ kind: "answered", status }));
  }

  return {
    /** One attempt; never rejects. */
    attempt(d: Delivery): Promise<Outcome> {
      // an address literal skips the lookup: checked here (names are checked as they resolve), which
      // also refuses an endpoint written before its spelling was recognised
      const why = isIpAddress(literal) ? refusedAddress(literal, opts.allow, self) : undefined;
      if (why) return Promise.resolve({ kind: "refused", error: why });
      return new Promise<Outcome>((ok) => {
        let done = false;
        const finish = (o: Outcome) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          inFlight = undefined;
          ok(o);
        };
        const req = send(
          url,
          { method: "POST", agent, headers: webhookHeaders(signer, d, opts.now()) },
          (res) => answered(res, finish),
        );
        const timer = setTimeout(() => {
          finish({ kind: "timeout" });
          req.destroy();
        }, opts.timeoutMs);
        req.on("error", (err) =>
          finish(
            err instanceof AddressRefused
              ? { kind: "refused", error: err.message }
              : { kind: "network", error: (err as NodeJS.ErrnoException).code ?? err.message },
          ),
        );
        inFlight = req;
        req.end(d.payload);
      });
    },
    /** Ends the attempt under way (a stop); it counts as not delivered. */
    abort(): void {
      inFlight?.destroy(new Error("stopped"));
    },
    close(): void {
      agent.destroy();
    },
  };
}

export type Sender = ReturnType<typeof createSender>;
