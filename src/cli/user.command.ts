/**
 * `pps-edge user …`: the API users of the station (docs/architecture.md#auth), over the station
 * database (user.database.ts). It works beside a running agent (WAL: the agent keeps serving while a
 * user is added).
 */
import { Command } from "commander";
import { MIN_PASSWORD_LENGTH } from "../domain/password-policy.js";
import { type Cli, loadCliConfig } from "./context.js";
import { readNewPassword } from "./password.js";
import type { Auth } from "./user.database.js";

/** Runs `use` over the station database (user.database.ts, loaded only now). */
async function withAuth(cmd: Command, cli: Cli, use: (auth: Auth) => Promise<void> | void): Promise<void> {
  const loaded = loadCliConfig(cmd, cli.io);
  const init = cmd.optsWithGlobals<{ init?: boolean }>().init === true;
  const db = await import("./user.database.js");
  await db.withAuth(loaded, init, use);
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
