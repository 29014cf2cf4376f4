/**
 * Pipelined HTTP/1.1 requests (RFC 9112 §9.3), held to a few in flight per connection (docs/limits.md).
 * Node's parser turns a whole read into requests at once and emits each, so 900 requests sent in one
 * write would all be worked on together, each answer built and buffered while the client reads none
 * (issue: 900 `GET /openapi.json` exhausted the heap). Here at most `inFlight` of a connection's
 * requests are handed to the app; the rest wait in arrival order, and the socket is not read while any
 * wait. A request counts until its answer has been handed to the kernel (`finish`) or its socket
 * closed, so a client that does not read its answers holds back its own next requests: backpressure.
 * More than `maxWaiting` waiting (more than one read can carry) closes the connection.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Socket } from "node:net";

export interface PipelineLimits {
  /** Requests of one connection worked on at once. */
  inFlight: number;
  /** Requests of one connection waiting their turn; beyond, the connection is closed. */
  maxWaiting: number;
}

/**
 * Node's HTTP server reads a connection's bytes in C++ straight into its parser, and its own reads of a
 * request body resume the socket unless `socket._paused` is set: the flag Node's own pipelining check
 * sets (lib/_http_server.js, `parserOnIncoming`) and honours (`readStart`, `onSocketResume`). So a pause
 * here sets it too, or `socket.pause()` alone would be undone at once (measured: 270,000 requests read
 * in 3 s from a socket "paused" after the first).
 */
type HttpSocket = Socket & { _paused?: boolean };

function stopReading(socket: HttpSocket): void {
  socket._paused = true;
  socket.pause();
}

function readOn(socket: HttpSocket): void {
  if (socket.destroyed || !socket._paused) return;
  socket._paused = false;
  socket.resume();
}

interface Turns {
  active: number;
  waiting: Array<[IncomingMessage, ServerResponse]>;
}

/** Wraps the app's listener; `refused` is told of each connection closed for too many waiting requests. */
export function limitPipelining(
  listener: RequestListener,
  limits: PipelineLimits,
  refused: (socket: Socket) => void,
): RequestListener {
  const bySocket = new WeakMap<Socket, Turns>();

  function start(turns: Turns, socket: Socket, req: IncomingMessage, res: ServerResponse): void {
    turns.active++;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      turns.active--;
      next(turns, socket);
    };
    res.once("finish", end);
    res.once("close", end);
    listener(req, res);
  }

  function next(turns: Turns, socket: Socket): void {
    while (turns.active < limits.inFlight && turns.waiting.length > 0) {
      const [req, res] = turns.waiting.shift() as [IncomingMessage, ServerResponse];
      if (socket.destroyed) continue;
      start(turns, socket, req, res);
    }
    // nothing waits: read on
    if (turns.waiting.length === 0) readOn(socket);
  }

  return (req, res) => {
    const socket = req.socket;
    // the rest of a read already parsed when the connection was closed for too many: nothing to do
    if (socket.destroyed) return;
    let turns = bySocket.get(socket);
    if (!turns) {
      turns = { active: 0, waiting: [] };
      bySocket.set(socket, turns);
      const t = turns;
      socket.once("close", () => {
        t.waiting.length = 0;
      });
      // Node resumes a socket it paused once its answers drain, whatever waits here: stopped again
      // before the next read (the resume takes effect a tick later)
      socket.on("resume", () => {
        if (t.waiting.length > 0) stopReading(socket);
      });
    }
    if (turns.active < limits.inFlight && turns.waiting.length === 0) {
      start(turns, socket, req, res);
      return;
    }
    if (turns.waiting.length >= limits.maxWaiting) {
      refused(socket);
      turns.waiting.length = 0;
      socket.destroy();
      return;
    }
    turns.waiting.push([req, res]);
    stopReading(socket);
  };
}
