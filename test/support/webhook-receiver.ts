/**
 * A webhook receiver for tests: a real node:http server that verifies every request with the
 * `standardwebhooks` verifier (a request it refuses is recorded in `unverified` and answered 400) and
 * answers as its script says: a status, `Retry-After`, a delay, or no answer at all. It dedupes by
 * `webhook-id` as a real receiver would, and records what it accepted in arrival order.
 */
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from "node:http";
import { createServer as createHttpsServer, type ServerOptions } from "node:https";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { deadline } from "./deadline.js";

export const TEST_SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;

export interface Answer {
  status?: number;
  retryAfter?: string;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Never answers (a timeout for the sender). */
  hang?: boolean;
}

export interface Received {
  id: string;
  seq: number;
  type: string;
  body: string;
  headers: IncomingHttpHeaders;
  at: number;
}

export interface Receiver {
  url: string;
  port: number;
  /** Every request that verified, in arrival order, retries included. */
  requests: Received[];
  /** What a deduping receiver keeps: each id once, at its first 2xx, in order. */
  accepted: Received[];
  /** Requests the verifier refused (must stay empty). */
  unverified: string[];
  /** What to answer to the n-th request (0-based) for this delivery; default 204. */
  script: (r: Received, n: number) => Answer;
  waitFor(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** `tls`: an HTTPS receiver with these options (its certificate, and a CA to ask clients for theirs). */
export async function startReceiver(secret = TEST_SECRET, tls?: ServerOptions): Promise<Receiver> {
  const verifier = new Webhook(secret);
  const hanging = new Set<() => void>();
  const acceptedIds = new Set<string>();
  let server: Server;
  const r: Receiver = {
    url: "",
    port: 0,
    requests: [],
    accepted: [],
    unverified: [],
    script: () => ({ status: 204 }),
    async waitFor(n, timeoutMs = 15_000) {
      const end = Date.now() + deadline(timeoutMs);
      while (r.accepted.length < n) {
        if (Date.now() > end) throw new Error(`the receiver has ${r.accepted.length} of ${n}`);
        await new Promise((ok) => setTimeout(ok, 20));
      }
    },
    close: () =>
      new Promise<void>((ok) => {
        for (const end of hanging) end();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
  const handle: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        verifier.verify(body, req.headers as Record<string, string>);
      } catch (err) {
        r.unverified.push(`${req.headers["webhook-id"]}: ${(err as Error).message}`);
        res.writeHead(400).end();
        return;
      }
      const env = JSON.parse(body) as {
        notification_id: string;
        notification_type: string;
        notification_part?: { notification_id: string };
      };
      // a part of a larger notification (docs/webhooks.md#body-size): its own webhook-id, its notification's seq
      const id = env.notification_part ? String(req.headers["webhook-id"]) : env.notification_id;
      const of = env.notification_part?.notification_id ?? env.notification_id;
      const got: Received = {
        id,
        seq: Number(of.split(".").pop()),
        type: env.notification_part ? "part" : env.notification_type,
        body,
        headers: req.headers,
        at: Date.now(),
      };
      const n = r.requests.length;
      r.requests.push(got);
      const a = r.script(got, n);
      if (a.hang) {
        const end = () => res.destroy();
        hanging.add(end);
        return;
      }
      const answer = () => {
        const status = a.status ?? 204;
        if (status >= 200 && status < 300 && !acceptedIds.has(got.id)) {
          acceptedIds.add(got.id);
          r.accepted.push(got);
        }
        res.writeHead(status, a.retryAfter ? { "retry-after": a.retryAfter } : {}).end();
      };
      if (a.delayMs) setTimeout(answer, a.delayMs);
      else answer();
    });
  };
  server = tls ? createHttpsServer(tls, handle) : createServer(handle);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  r.port = (server.address() as AddressInfo).port;
  r.url = tls ? `https://localhost:${r.port}/hook` : `http://127.0.0.1:${r.port}/hook`;
  return r;
}

/** Throws unless the seqs are strictly increasing (each id once, in commit order). */
export function assertInOrder(received: readonly Received[]): void {
  for (let i = 1; i < received.length; i++) {
    const a = received[i - 1] as Received;
    const b = received[i] as Received;
    if (b.seq <= a.seq) throw new Error(`out of order: ${b.id} after ${a.id}`);
  }
}
