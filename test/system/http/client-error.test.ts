/**
 * Requests Node's parser refuses never reach the app; they still get the station's error body
 * (src/http/client-error.ts), over a real socket, and the station goes on serving.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAgent, type TestAgent } from "../../support/agent.js";

let t: TestAgent;
let port: number;
beforeAll(async () => {
  t = await startTestAgent({}, { listen: true });
  port = t.agent.address?.port as number;
});
afterAll(async () => t.close());

/** Sends raw bytes; resolves with the status code, headers and body once the server closes. */
function raw(text: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((ok, fail) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(text));
    let got = "";
    socket.on("data", (d) => {
      got += d.toString("utf8");
    });
    socket.once("error", fail);
    socket.once("close", () => {
      const [head = "", body = ""] = got.split("\r\n\r\n");
      ok({ status: Number(head.split(" ")[1]), head, body });
    });
  });
}

describe("requests the HTTP parser refuses", () => {
  it.each([
    ["a backslash in the path", "GET /station\\state HTTP/1.1\r\nHost: s\r\n\r\n", "request line"],
    ["a control character in the path", "GET /station/\x01 HTTP/1.1\r\nHost: s\r\n\r\n", "request line"],
    ["not HTTP at all", "HELLO\r\n\r\n", "request line"],
    [
      "headers over 16 KiB",
      `GET /healthz HTTP/1.1\r\nHost: s\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
      "headers",
    ],
  ])("%s: 400 invalid_request naming the part at fault, and the connection closed", async (_, text, path) => {
    const res = await raw(text);
    expect(res.status).toBe(400);
    expect(res.head).toMatch(/connection: close/i);
    expect(res.head).toMatch(/content-type: application\/json/i);
    const body = JSON.parse(res.body) as { status: number; code: string; errors: Array<{ path: string }> };
    expect(body).toMatchObject({ status: 400, code: "invalid_request" });
    expect(body.errors[0]?.path).toBe(path);
    // the station still serves
    expect((await raw("GET /healthz HTTP/1.1\r\nHost: s\r\nConnection: close\r\n\r\n")).status).toBe(200);
  });
});
