/**
 * Requests Node's HTTP parser refuses before the app sees them: a malformed request line, a backslash
 * or control character in the path, headers over Node's 16 KiB limit. Node would answer a bare
 * `400 Bad Request` without a body; the station answers with its error body (docs/errors.md), so a
 * client reads the same `code` and field as for every other refusal, and the connection closes (the
 * parser cannot tell where the next request would begin).
 */
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { errorBody, internalErrorBody } from "../domain/error-body.js";
import { AppError } from "../domain/errors.js";

/** The refusal for a parser error code (`HPE_…` of llhttp), naming the part of the request at fault. */
export function parserRefusal(code: string | undefined): AppError {
  if (code === "HPE_HEADER_OVERFLOW")
    return new AppError("invalid_request", "request headers too large", [
      { path: "headers", message: "at most 16 KiB of request line and headers" },
    ]);
  if (code === "HPE_INVALID_URL" || code === "HPE_INVALID_METHOD" || code === "HPE_INVALID_VERSION")
    return new AppError("invalid_request", "malformed request line", [
      {
        path: "request line",
        message: "method, path (no spaces, backslashes or control characters) and HTTP version",
      },
    ]);
  return new AppError("invalid_request", "malformed HTTP request", [
    { path: "request", message: "not a well-formed HTTP/1.1 request" },
  ]);
}

/** The whole HTTP/1.1 response for a refusal, closing the connection. */
export function refusalResponse(err: AppError): string {
  const body = JSON.stringify(errorBody(err));
  return [
    "HTTP/1.1 400 Bad Request",
    "Content-Type: application/json; charset=utf-8",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

function jsonResponse(body: object, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", ...headers },
  });
}

/**
 * What the adaptor answers for a request it cannot make a `Request` of (a backslash in the path, a
 * missing Host): the same error body, 400 `invalid_request`.
 */
export function requestRefusal(err: unknown): Response {
  // anything else thrown before the app answered is the station's fault, not the client's
  if (!(err instanceof Error) || err.name !== "RequestError") return jsonResponse(internalErrorBody(), 500);
  const reason = err.message;
  const refusal = new AppError("invalid_request", reason, [{ path: "request line", message: reason }]);
  return jsonResponse(errorBody(refusal), 400, { Connection: "close" });
}

/** Answers what the parser refuses; timeouts keep Node's 408, a reset or closed socket is just closed. */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (err: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || err.code === "ECONNRESET") {
      socket.destroy();
      return;
    }
    // written, then closed without waiting for the client's side (as Node does): a slow client must
    // not keep the socket open
    const answer =
      err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n"
        : refusalResponse(parserRefusal(err.code));
    socket.write(answer);
    socket.destroy();
  });
}
