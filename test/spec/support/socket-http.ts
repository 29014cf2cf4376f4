import { request as httpRequest } from "node:http";

/** Statuses whose answer has no body: a `Response` refuses one for them. */
const NO_BODY = new Set([101, 204, 205, 304]);

/** The bytes of a `RequestInit.body` the suite sends: text, a form, or bytes. */
function bodyBytes(body: RequestInit["body"], headers: Headers): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === "string") return Buffer.from(body, "utf8");
  if (body instanceof URLSearchParams) {
    if (!headers.has("content-type")) {
      headers.set("content-type", "application/x-www-form-urlencoded;charset=UTF-8");
    }
    return Buffer.from(body.toString(), "utf8");
  }
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  throw new Error(`socket request: unsupported body ${Object.prototype.toString.call(body)}`);
}

/**
 * A `fetch`-shaped request to the agent listening on `port`, over a real TCP connection as an
 * integrator's client makes it: the agent sees a socket, its address and the wire headers. node:http
 * rather than `fetch`, because `fetch` replaces a `Host` header with the address it dials, and a
 * caller on the LAN names the station by the host it reached (docs/decisions.md#reports).
 */
export function socketRequest(port: number): (path: string, init?: RequestInit) => Promise<Response> {
  return (path, init = {}) =>
    new Promise<Response>((resolve, fail) => {
      const headers = new Headers(init.headers);
      const body = bodyBytes(init.body, headers);
      if (body) headers.set("content-length", String(body.length));
      const req = httpRequest(
        {
          host: "127.0.0.1",
          port,
          path,
          method: init.method ?? "GET",
          headers: Object.fromEntries(headers),
          // One connection per request: no idle keep-alive socket races the server's keep-alive timeout.
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("error", fail);
          res.on("end", () => {
            const status = res.statusCode ?? 0;
            const answer = new Headers();
            for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
              answer.append(res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string);
            }
            const content = NO_BODY.has(status) ? null : Buffer.concat(chunks);
            resolve(new Response(content, { status, statusText: res.statusMessage, headers: answer }));
          });
        },
      );
      req.on("error", fail);
      req.end(body);
    });
}
