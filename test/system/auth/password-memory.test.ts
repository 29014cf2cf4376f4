/**
 * Logins arriving together do not add up in memory (docs/limits.md): a password check is an scrypt that
 * needs 32 MiB outside the JavaScript heap, and the agent works them out one at a time, the others
 * waiting in order. Node's thread pool would otherwise run four at once (its default size, set here so
 * the test does not depend on the machine's), and the agent's resident memory would leap by ~128 MiB for
 * as long as they last: short enough to escape a once-a-second sample, not the kernel's high-water mark.
 * Measured on the real agent in its own process, over HTTP, as the kernel counts it.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, ADMIN_PASSWORD, BASIC, TOKEN_PATH } from "../../support/agent.js";
import { type ChildAgent, startChildAgent } from "../../support/child-agent.js";
import { deadline } from "../../support/deadline.js";

const MIB = 1024 * 1024;

/** A field of /proc/<pid>/status in bytes (VmRSS: resident now; VmHWM: the most it ever was). */
function status(pid: number, field: "VmRSS" | "VmHWM"): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`no ${field} for ${pid}`);
  return Number(m[1]) * 1024;
}

function login(base: string, username: string, password: string): Promise<number> {
  return fetch(`${base}${TOKEN_PATH}`, {
    method: "POST",
    headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username, password }).toString(),
  }).then(async (res) => {
    await res.arrayBuffer();
    return res.status;
  });
}

let dir: string;
let agent: ChildAgent;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pps-edge-password-memory-"));
  agent = await startChildAgent(dir, { UV_THREADPOOL_SIZE: "4" });
}, deadline(60_000));
afterAll(async () => {
  await agent?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("password checks and memory", () => {
  it(
    "8 logins at once, right and wrong, cost the memory of one scrypt, and each is answered",
    async () => {
      const pid = agent.proc.pid as number;
      // the high-water mark so far holds the start's own scrypt (the admin's password hashed) and the
      // first login's: one scrypt above the resident memory of then, as the logins below may be
      const before = status(pid, "VmRSS");
      const statuses = await Promise.all([
        ...Array.from({ length: 4 }, () => login(agent.base, ADMIN, ADMIN_PASSWORD)),
        // an unknown user spends the same scrypt (against a dummy hash), and waits in the same line
        ...Array.from({ length: 4 }, (_, i) => login(agent.base, `nobody-${i}`, "not-the-password-123")),
      ]);
      expect(statuses).toEqual([200, 200, 200, 200, 401, 401, 401, 401]);
      const rise = status(pid, "VmHWM") - before;
      // one scrypt is 32 MiB (128·N·r with N = 2^15, r = 8); four at once are ~128 MiB
      expect(rise / MIB).toBeLessThan(64);
    },
    deadline(60_000),
  );
});
