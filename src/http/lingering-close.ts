/**
 * A lingering close (nginx `lingering_close`, https://nginx.org/en/docs/http/ngx_http_core_module.html#lingering_close):
 * an answer sent before the request's body was read (a 413 for a declared length over the limit) ends
 * the connection, and Node closes the socket as soon as the answer is flushed. Bytes of the body still
 * arriving then make the kernel reset the connection, and the client, still writing, gets EPIPE or
 * ECONNRESET instead of reading the 413 (issue: 6 of 10 clients with a 2 MB body). Instead the server
 * closes its sending side after the answer and reads and discards what still arrives, until the client
 * closes its side, for at most `LINGER_MS` and `LINGER_BYTES`; then the socket is closed.
 */
import type { Socket } from "node:net";

/** How long a closing connection is read from at most (nginx's `lingering_time` is 30 s; an answer is sent already). */
export const LINGER_MS = 5_000;
/** How much of an unread body is read and discarded at most before the connection is closed anyway. */
export const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * Makes Node's close after an answer with `Connection: close` (`socket.destroySoon()`, called once the
 * answer is handed to the socket) a lingering one on this socket.
 */
export function lingerOnClose(socket: Socket): void {
  socket.destroySoon = function lingering(this: Socket) {
    // the answer leaves first, then our FIN: the client reads it whatever it still sends
    if (this.writable) this.end();
    // Node's parser goes on reading the refused body and discards it (the request was dumped); only
    // how long and how much is bounded here
    const from = this.bytesRead;
    const done = () => this.destroy();
    const timer = setTimeout(done, LINGER_MS);
    const watch = setInterval(() => {
      if (this.bytesRead - from > LINGER_BYTES) done();
    }, 100);
    timer.unref();
    watch.unref();
    this.once("end", done);
    this.once("close", () => {
      clearTimeout(timer);
      clearInterval(watch);
    });
    this.resume();
  };
}
