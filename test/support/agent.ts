import { rmSync } from "node:fs";
import pino, { type DestinationStream } from "pino";
import { type Agent, createAgent } from "../../src/app/agent.js";
import { parseConfig } from "../../src/config/config.load.js";
import { createLogger } from "../../src/log.js";
import { tempDir } from "./temp-dirs.js";

export { tempDir };

export const CLIENT_ID = "test-client";
export const CLIENT_SECRET = "test-client-secret-123";
export const ADMIN = "admin";
export const ADMIN_PASSWORD = "admin-password-123";
export const BASIC = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString("base64")}`;
/** The test agents' `/metrics` scrape credential, and the request options that send it. */
export const METRICS_TOKEN = "test-scrape-token-123";
export const SCRAPE = { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } };

export interface TestAgent {
  agent: Agent;
  dir: string;
  clock: { now: number };
  /** The delays a failed login asked for, in order (docs/security.md#login-policy); nobody waits in tests. */
  sleeps: number[];
  /** In-process request (no port), as Hono's app.request. */
  request(path: string, init?: RequestInit): Promise<Response>;
  token(): Promise<string>;
  /** JSON call with a bearer token. */
  call(method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
}

/**
 * An agent on a real SQLite file in a temp folder, with a clock the test can move. Silent, unless
 * `logTo` is given: then the agent's own logger writes JSON lines there at the configured `log.level`.
 */
export const TOKEN_PATH = "/api-gateway/auth-service/platform-auth/oauth/token";

/** The token request of the test admin (password grant with the test client credential). */
export function passwordGrant(password = ADMIN_PASSWORD): RequestInit {
  return {
    method: "POST",
    headers: { Authorization: BASIC, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "password", username: ADMIN, password }).toString(),
  };
}

/** The test agents' config: a data folder of their own, the test credentials, no listener, no broker. */
export function testConfig(dir: string, overrides: Record<string, unknown> = {}) {
  return parseConfig({
    dataDir: dir,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    adminUser: ADMIN,
    adminPassword: ADMIN_PASSWORD,
    metrics: { token: METRICS_TOKEN },
    http: { host: "127.0.0.1", port: 0 },
    log: { level: "silent" },
    // No broker unless a test asks for one (test/system/sync/): parallel test files would share port 1883.
    mqtt: { url: "off" },
    ...overrides,
  });
}

/**
 * Starts and stops an agent on `dataDir` with the test config; resolves with what the start threw
 * (a start error, e.g. a damaged or newer database), or undefined when it started.
 */
export async function startFailure(dataDir: string): Promise<unknown> {
  const agent = createAgent(testConfig(dataDir), { log: pino({ level: "silent" }) });
  try {
    await agent.start(false);
  } catch (e) {
    return e;
  }
  await agent.stop();
  return undefined;
}

export async function startTestAgent(
  overrides: Record<string, unknown> = {},
  opts: { listen?: boolean; logTo?: DestinationStream } = {},
): Promise<TestAgent> {
  const dir = tempDir();
  const clock = { now: Date.parse("2026-11-21T10:00:00.000Z") };
  const config = testConfig(dir, overrides);
  const log = opts.logTo
    ? createLogger(config, { destination: opts.logTo, journal: false, tty: false })
    : pino({ level: "silent" });
  const sleeps: number[] = [];
  const sleep = async (ms: number) => {
    sleeps.push(ms);
  };
  const agent = createAgent(config, { log, now: () => clock.now, sleep });
  await agent.start(opts.listen ?? false);
  let cached: string | undefined;
  const t: TestAgent = {
    agent,
    dir,
    clock,
    sleeps,
    request: async (path, init) => agent.app.request(path, init),
    async token() {
      if (cached) return cached;
      const res = await agent.app.request(TOKEN_PATH, passwordGrant());
      if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
      cached = ((await res.json()) as { access_token: string }).access_token;
      return cached;
    },
    async call(method, path, body) {
      const headers: Record<string, string> = { Authorization: `Bearer ${await t.token()}` };
      if (body !== undefined) headers["Content-Type"] = "application/json";
      return agent.app.request(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    },
    async close() {
      await agent.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return t;
}
