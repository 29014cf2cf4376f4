import { Readable } from "node:stream";
import { main } from "../../src/app/main.js";

/** `pps-edge ARGS` in-process, with piped standard input: the exit code and what it printed. */
export async function runCli(args: string[], env: Record<string, string>, stdin = "") {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, {
    stdin: Readable.from([Buffer.from(stdin)]),
    out: (s) => out.push(s),
    err: (s) => err.push(s),
    env,
  });
  return { code, out: out.join("\n"), err: err.join("\n") };
}
