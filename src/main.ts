import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createAgent, DB_FILE } from "./agent.js";
import { loadConfig } from "./config/config.load.js";
import type { Config } from "./config/config.schema.js";
import { createAuthRepo } from "./db/auth.repo.js";
import { openDatabase } from "./db/open.js";
import { PROFILES_USAGE, profilesCommand } from "./devices/profiles.cli.js";
import { isAppError } from "./domain/errors.js";
import { createLogger } from "./log.js";
import { createAuthService } from "./services/auth/auth.service.js";
import { SIM_USAGE, simCommand } from "./sim.cli.js";

const USAGE = `usage: pps-edge [run] [--config FILE]
       pps-edge user add NAME [--config FILE]             (password read from standard input)
       pps-edge user reset-password NAME [--config FILE]  (password read from standard input)
       pps-edge user remove NAME [--config FILE]
       pps-edge user list [--config FILE]
${SIM_USAGE}
${PROFILES_USAGE}
Configuration: --config FILE or PPS_EDGE_CONFIG, and PPS_EDGE_<KEY> variables (see README).`;

export const MIN_PASSWORD = 8;

interface Io {
  stdin: NodeJS.ReadableStream;
  out: (s: string) => void;
  err: (s: string) => void;
  env: Record<string, string | undefined>;
}

async function readStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk as Buffer));
  // One line: the password, without the newline a shell adds.
  return Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? "";
}

function parseArgs(argv: string[]): { positional: string[]; config: string | undefined } {
  const positional: string[] = [];
  let config: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === "--config") config = argv[++i];
    else if (a.startsWith("--config=")) config = a.slice("--config=".length);
    else positional.push(a);
  }
  return { positional, config };
}

async function userCommand(config: Config, args: string[], io: Io): Promise<number> {
  const [action, name] = args;
  const handle = openDatabase(join(resolve(config.dataDir), DB_FILE), { synchronous: config.db.synchronous });
  try {
    const auth = createAuthService(createAuthRepo(handle.db), {
      clientId: config.clientId,
      tokenTtlSeconds: config.tokenTtlSeconds,
      refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
      now: Date.now,
    });
    if (action === "list") {
      for (const u of auth.listUsers()) io.out(`${u.id}\t${u.username}`);
      return 0;
    }
    if (!name) {
      io.err(USAGE);
      return 2;
    }
    if (action === "remove") {
      auth.removeUser(name);
      io.out(`removed user ${name}`);
      return 0;
    }
    if (action === "add" || action === "reset-password") {
      const password = await readStdin(io.stdin);
      if (password.length < MIN_PASSWORD) {
        io.err(`password: at least ${MIN_PASSWORD} characters are required (read from standard input)`);
        return 2;
      }
      if (action === "add") await auth.addUser(name, password);
      else await auth.resetPassword(name, password);
      io.out(action === "add" ? `added user ${name}` : `password of ${name} reset; its tokens are revoked`);
      return 0;
    }
    io.err(USAGE);
    return 2;
  } finally {
    handle.close();
  }
}

/** Entry point: returns the exit code for one-shot commands; `run` resolves once the agent is up. */
export async function main(argv: string[], io: Io): Promise<number> {
  const { positional, config: configFlag } = parseArgs(argv);
  const [command = "run", ...rest] = positional;
  if (command === "help" || command === "--help" || command === "-h") {
    io.out(USAGE);
    return 0;
  }
  let config: Config;
  try {
    config = loadConfig(configFlag ?? io.env.PPS_EDGE_CONFIG, io.env);
  } catch (e) {
    io.err(`pps-edge: ${(e as Error).message}`);
    return 2;
  }
  try {
    if (command === "user") return await userCommand(config, rest, io);
    if (command === "sim") return await simCommand(config, rest, io);
    if (command === "profiles") return await profilesCommand(rest[0] ?? config.devices.profilesDir, io);
    if (command !== "run") {
      io.err(USAGE);
      return 2;
    }
  } catch (e) {
    io.err(`pps-edge: ${isAppError(e) ? e.message : String(e)}`);
    return 1;
  }

  const log = createLogger(config);
  const agent = createAgent(config, { log });
  try {
    await agent.start();
  } catch (e) {
    log.fatal({ err: e }, "start failed");
    await agent.stop().catch(() => {});
    return 1;
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    agent.stop().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, "stop failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  return -1; // keep running
}

function isEntry(): boolean {
  const argv1 = process.argv[1];
  if (!argv1) return false;
  try {
    return realpathSync(argv1) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntry()) {
  main(process.argv.slice(2), {
    stdin: process.stdin,
    out: (s) => process.stdout.write(`${s}\n`),
    err: (s) => process.stderr.write(`${s}\n`),
    env: process.env,
  }).then((code) => {
    if (code >= 0) process.exitCode = code;
  });
}
