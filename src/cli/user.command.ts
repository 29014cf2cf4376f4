/**
 * `pps-edge user …`: the API users of the station (docs/architecture.md#auth), over the station
 * database. It works beside a running agent (WAL: the agent keeps serving while a user is added). A
 * data folder without a database is refused unless `--init` says to create one: a typo in the path
 * must not leave a new, empty station behind.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { Command } from "commander";
import { createAuthRepo } from "../db/auth.repo.js";
import { openDatabase } from "../db/open.js";
import { MIN_PASSWORD_LENGTH } from "../domain/password-policy.js";
import { DB_FILE } from "../parts/foundation.js";
import { createAuthService } from "../services/auth/auth.service.js";
import { type Cli, type LoadedConfig, loadCliConfig } from "./context.js";
import { readNewPassword } from "./password.js";

type Auth = ReturnType<typeof createAuthService>;

function whereFrom(origin: string): string {
  return origin === "the default"
    ? "dataDir is the default ./data, under the current folder"
    : `dataDir from ${origin}`;
}

/** Opens the station database (refused when absent without --init) for the time `use` runs. */
async function withAuth(cmd: Command, cli: Cli, use: (auth: Auth) => Promise<void> | void): Promise<void> {
  const { config, origin }: LoadedConfig = loadCliConfig(cmd, cli.io);
  const path = join(resolve(config.dataDir), DB_FILE);
  if (!cmd.optsWithGlobals<{ init?: boolean }>().init && !existsSync(path)) {
    throw new Error(`no database at ${path} (${whereFrom(origin("dataDir"))}); pass --init to create one`);
  }
  const handle = openDatabase(path, {
    synchronous: config.db.synchronous,
    busyTimeoutMs: config.db.busyTimeoutMs,
  });
  try {
    await use(
      createAuthService(createAuthRepo(handle.db), {
        clientId: config.clientId,
        tokenTtlSeconds: config.tokenTtlSeconds,
        refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
        now: Date.now,
      }),
    );
  } finally {
    handle.close();
  }
}

const PASSWORD_HELP = `
The password is asked twice on a terminal (not shown), or read from the first line of standard input
when it is piped: echo 'a long password' | pps-edge user add alice. At least ${MIN_PASSWORD_LENGTH} characters.`;

export function defineUser(cli: Cli): Command {
  const { io } = cli;
  const user = new Command("user")
    .description("the API users: add, reset a password, remove, list")
    .option("--init", "create the database if the data folder has none (a new station)");
  user
    .command("add")
    .description("add an API user")
    .argument("<name>", "the user name")
    .addHelpText("after", PASSWORD_HELP)
    .action((name: string, _opts, cmd: Command) =>
      withAuth(cmd, cli, async (auth) => {
        if (auth.hasUser(name)) throw new Error(`user ${name} exists`);
        await auth.addUser(name, await readNewPassword(io, name));
        io.out(`added user ${name}`);
      }),
    );
  user
    .command("reset-password")
    .description("give a user a new password; the user's tokens are revoked")
    .argument("<name>", "the user name")
    .addHelpText("after", PASSWORD_HELP)
    .action((name: string, _opts, cmd: Command) =>
      withAuth(cmd, cli, async (auth) => {
        if (!auth.hasUser(name)) throw new Error(`no user ${name}`);
        await auth.resetPassword(name, await readNewPassword(io, name));
        io.out(`password of ${name} reset; its tokens are revoked`);
      }),
    );
  user
    .command("remove")
    .description("remove an API user and the user's tokens")
    .argument("<name>", "the user name")
    .action((name: string, _opts, cmd: Command) =>
      withAuth(cmd, cli, (auth) => {
        auth.removeUser(name);
        io.out(`removed user ${name}`);
      }),
    );
  user
    .command("list")
    .description("list the API users (id and name)")
    .action((_opts, cmd: Command) =>
      withAuth(cmd, cli, (auth) => {
        for (const u of auth.listUsers()) io.out(`${u.id}\t${u.username}`);
      }),
    );
  return user;
}
