/**
 * The station API's connections and the progress each makes (docs/limits.md#slow-readers): sampled
 * every `TICK_MS`, the decisions are domain/connection-progress.ts's. Node's HTTP timeouts watch what a
 * client sends; none watches what it takes, and a full send buffer stops nothing (its socket timeout is
 * reset by every write the kernel accepts, and a client that never reads accepts none). Here a
 * connection's answers that wait unread past the send deadline, or over the answer budget, end it, and
 * when every place is taken a newcomer takes the place of the connection making no progress.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import {
  accepted,
  admitsCostly,
  evictable,
  holdPlacesMs,
  observe,
  overBudget,
  type Progress,
  type ProgressRules,
  placesFor,
  type Watched,
} from "../domain/connection-progress.js";

/** How often every connection is sampled: the send deadline and the budget act within a tick of it. */
export const TICK_MS = 250;

/** Why a connection was ended; `budget_refusals_total`'s reason. */
export type CutReason = "http_send_timeout" | "http_answer_bytes" | "http_evicted";

interface Entry {
  /** The TCP socket, and the one HTTP writes to (the TLS socket on HTTPS, once its handshake is done). */
  tcp: Socket;
  http: Socket;
  address: string;
  progress: Progress;
  /** Answers begun and not yet handed to the kernel. */
  answers: Set<ServerResponse>;
  begun: number;
  answered: number;
}

export interface ConnectionWatch {
  /** Takes a newly accepted socket: false when every place is taken and none could be freed. */
  admit(socket: Socket, maxConnections: number): boolean;
  /** On HTTPS: the TLS socket HTTP writes to, once `tcp`'s handshake is done. */
  secured(tls: Socket): void;
  /** Wraps the app's listener: each request begun and answered is counted on its connection. */
  listener(inner: RequestListener): RequestListener;
  /** Places `address` may hold open now: `perAddress`, fewer while it is held back for unread answers. */
  placesFor(address: string, perAddress: number): number;
  /** Whether a costly request that came on `socket` may begin now (the answer budget). */
  admitsCostly(socket: Socket | undefined): boolean;
  /** Connections watched now. */
  count(): number;
  stop(): void;
}

const byHttpSocket = new WeakMap<Socket, ConnectionWatch>();

/** The watch that took the connection a request came on, if any (in-process requests have none). */
export function watchOf(socket: Socket | undefined): ConnectionWatch | undefined {
  return socket ? byHttpSocket.get(socket) : undefined;
}

/** Bytes of a connection's answers not yet handed to the kernel: its socket's and those queued behind. */
function heldBytes(e: Entry): number {
  let held = e.http.destroyed ? 0 : e.http.writableLength;
  // a pipelined answer waits in its own buffer until the one before it is done (it has no socket yet)
  for (const res of e.answers) if (!res.socket) held += res.writableLength;
  return held;
}

export function connectionWatch(
  rules: ProgressRules,
  cut: (reason: CutReason, address: string) => void,
  now: () => number = () => performance.now(),
): ConnectionWatch {
  const entries = new Map<Socket, Entry>();
  const byHttp = new WeakMap<Socket, Entry>();
  const byPeer = new Map<string, Entry>();
  const peer = (s: Socket) => `${s.remoteAddress}|${s.remotePort}`;
  /** When the station last cut a connection of each address for its unread answers. */
  const cutAt = new Map<string, number>();

  function sample(at: number): Watched<Entry>[] {
    const all: Watched<Entry>[] = [];
    for (const e of entries.values()) {
      const s = { held: heldBytes(e), written: e.http.bytesWritten, begun: e.begun, answered: e.answered };
      const seen = observe(e.progress, s, at, rules);
      e.progress = seen.progress;
      if (seen.cut) end(e, "http_send_timeout");
      else all.push({ id: e, address: e.address, progress: e.progress, inFlight: e.begun - e.answered });
    }
    return all;
  }

  function end(e: Entry, reason: CutReason): void {
    forget(e);
    if (reason !== "http_evicted") cutAt.set(e.address, now());
    cut(reason, e.address);
    e.http.destroy();
    e.tcp.destroy();
  }

  function forget(e: Entry): void {
    entries.delete(e.tcp);
    byPeer.delete(peer(e.tcp));
  }

  function keepBudget(all: Watched<Entry>[], at: number): void {
    for (const e of overBudget(all, at, rules)) end(e, "http_answer_bytes");
  }

  const timer = setInterval(() => {
    const at = now();
    keepBudget(sample(at), at);
    for (const [address, cut] of cutAt) if (at - cut >= holdPlacesMs(rules)) cutAt.delete(address);
  }, TICK_MS);
  timer.unref();

  const watch: ConnectionWatch = {
    admit(socket, maxConnections) {
      // a socket destroyed gives its place back at once, as Node's own count does (`close` comes later)
      for (const e of entries.values()) if (e.tcp.destroyed) forget(e);
      if (entries.size >= maxConnections) {
        const at = now();
        const victim = evictable(sample(at), socket.remoteAddress ?? "unknown", at, rules);
        if (!victim) return false;
        end(victim, "http_evicted");
      }
      const e: Entry = {
        tcp: socket,
        http: socket,
        address: socket.remoteAddress ?? "unknown",
        progress: accepted(now()),
        answers: new Set(),
        begun: 0,
        answered: 0,
      };
      entries.set(socket, e);
      byHttp.set(socket, e);
      byHttpSocket.set(socket, watch);
      byPeer.set(peer(socket), e);
      socket.once("close", () => forget(e));
      return true;
    },
    secured(tls) {
      const e = byPeer.get(peer(tls));
      if (!e) return;
      e.http = tls;
      byHttp.set(tls, e);
      byHttpSocket.set(tls, watch);
    },
    listener(inner) {
      return (req: IncomingMessage, res: ServerResponse) => {
        const e = byHttp.get(req.socket);
        if (e) {
          e.begun++;
          e.answers.add(res);
          let done = false;
          const answered = () => {
            if (done) return;
            done = true;
            e.answers.delete(res);
            e.answered++;
          };
          res.once("finish", answered);
          res.once("close", answered);
        }
        inner(req, res);
      };
    },
    placesFor(address, perAddress) {
      return placesFor(perAddress, cutAt.get(address), now(), rules);
    },
    admitsCostly(socket) {
      const e = socket ? byHttp.get(socket) : undefined;
      if (!e) return true;
      const at = now();
      const all = sample(at);
      keepBudget(all, at);
      return admitsCostly(
        all.filter((w) => entries.has(w.id.tcp)),
        e.address,
        rules,
        at,
        cutAt.get(e.address),
      );
    },
    count: () => entries.size,
    stop: () => clearInterval(timer),
  };
  return watch;
}
