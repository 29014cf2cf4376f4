/**
 * `pps-edge user …`: the API users of the station (docs/architecture.md#auth), over the station
 * database (database.ts). It works beside a running agent (WAL: the agent keeps serving while a
 * user is added).
 */
import { Command } from "commander";
import { MIN_PASSWORD_LENGTH } from "../../domain/password-policy.js";
import { printable } from "../../domain/printable.js";
import { isRole, ROLES, type Role } from "../../domain/roles.js";
import { pinProblem } from "../../domain/supervisor-credential.js";
import type { createAuthService } from "../../services/auth/auth.service.js";
import { type Cli, loadCliConfig, UsageError } from "./context.js";
import { readNewPassword, readNewPin } from "./password.js";

type Auth = ReturnType<typeof createAuthService>;

/** Runs `use` over the station database; the database code loads only now. */
async function withAuth(cmd: Command, cli: Cli, use: (auth: Auth) => Promise<void> | void): Promise<void> {
  const loaded = loadCliConfig(cmd, cli.io);
  const { config } = loaded;
  const init = cmd.optsWithGlobals<{ init?: boolean }>().init === true;
  const [
    { withDatabase },
    { createAuthRepo },
    { createSecurityEventsRepo },
    { createAuthService, createSecurityLog },
  ] = await Promise.all([
    import("./database.js"),
    import("../../db/auth.repo.js"),
    import("../../db/security-events.repo.js"),
    import("../../services/auth/auth.service.js"),
  ]);
  await withDatabase(loaded, init, async (handle) => {
    // user changes are recorded in the station's security event log (docs/security.md#security-event-log)
    const security = createSecurityLog({ repo: createSecurityEventsRepo(handle.sqlite), now: Date.now });
    await use(
      createAuthService(createAuthRepo(handle.db), {
        clientId: config.clientId,
        tokenTtlSeconds: config.tokenTtlSeconds,
        refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
        now: Date.now,
        security: security.record,
      }),
    );
  });
}

const ROLE_LIST = ROLES.join(", ");

/** A role named on the command line; none or an unknown one is a usage error naming the roles. */
function roleFrom(text: string | undefined, what: string): Role {
  if (text === undefined) throw new UsageError(`${what} is required: one of ${ROLE_LIST}`);
  if (!isRole(text)) throw new UsageError(`${what} '${text}' is not a role: one of ${ROLE_LIST}`);
  return text;
}

const ROLE_HELP = `
Roles (docs/security.md#roles): integration (the central system: the interface's endpoints and its station
calls), operator (a person at the station: the operator actions and the operator screen), admin
(everything, and the station's management).`;

const PASSWORD_HELP = `
The password is asked twice on a terminal (not shown), or read from the first line of standard input
when it is piped: echo 'a long password' | pps-edge user add alice --role operator. At least ${MIN_PASSWORD_LENGTH} characters.`;

export function defineUser(cli: Cli): Command {
  const { io } = cli;
  const user = new Command("user")
    .description("the API users: add, change a role, reset a password, remove, list")
    .option("--init", "create the database if the data folder has none (a new station)");
  user
    .command("add")
    .description("add an API user with a role")
    .argument("<name>", "the user name")
    .option("--role <role>", `what the user may do (required): ${ROLE_LIST}`)
    .addHelpText("after", `${ROLE_HELP}${PASSWORD_HELP}`)
    .action((name: string, opts: { role?: string }, cmd: Command) => {
      const role = roleFrom(opts.role, "--role");
      return withAuth(cmd, cli, async (auth) => {
        if (auth.hasUser(name)) throw new Error(`user ${name} exists`);
        await auth.addUser(name, await readNewPassword(io, name), role);
        io.out(`added user ${name} (${role})`);
      });
    });
  user
    .command("role")
    .description("give a user another role; their screen sessions and MQTT connections end")
    .argument("<name>", "the user name")
    .argument("<role>", ROLE_LIST)
    .addHelpText("after", ROLE_HELP)
    .action((name: string, text: string, _opts, cmd: Command) => {
      const role = roleFrom(text, "role");
      return withAuth(cmd, cli, (auth) => {
        if (!auth.hasUser(name)) throw new Error(`no user ${name}`);
        const changed = auth.setRole(name, role);
        io.out(changed ? `${name} is now ${role}` : `${name} is ${role} already`);
      });
    });
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
    .description("list the API users (id, name and role)")
    .action((_opts, cmd: Command) =>
      withAuth(cmd, cli, (auth) => {
        for (const u of auth.listUsers()) io.out(`${u.id}\t${printable(u.username)}\t${u.role}`);
      }),
    );
  defineSupervisor(user, cli);
  return user;
}

const SUPERVISOR_HELP = `
A supervisor's badge or PIN authorises one action at a seat that the user's role may perform (a mode
switch, skipping a label: an admin's), recorded with the operator's and the supervisor's names
(docs/security.md#supervisor-credentials). --badge prints the badge's barcode text (SUP-…) once: print it
as a Code 128 barcode; a new badge replaces the old one. The PIN (6 to 12 digits) is asked twice on a
terminal, or read from the first line of standard input.`;

/** `user supervisor NAME` and `user supervisors`: the supervisors' seat credentials. */
function defineSupervisor(user: Command, cli: Cli): void {
  const { io } = cli;
  user
    .command("supervisor")
    .description("give a user a supervisor's badge and/or PIN for the seats, or take them away")
    .argument("<name>", "the user name")
    .option("--badge", "make a new badge and print its barcode text")
    .option("--pin", "set the PIN")
    .option("--remove", "take the badge and the PIN away")
    .addHelpText("after", SUPERVISOR_HELP)
    .action((name: string, opts: { badge?: boolean; pin?: boolean; remove?: boolean }, cmd: Command) => {
      if (opts.remove && (opts.badge || opts.pin))
        throw new UsageError("--remove goes alone, without --badge or --pin");
      if (!opts.remove && !opts.badge && !opts.pin) throw new UsageError("give --badge, --pin or --remove");
      return withAuth(cmd, cli, async (auth) => {
        if (!auth.hasUser(name)) throw new Error(`no user ${name}`);
        if (opts.remove) {
          io.out(auth.removeSupervisor(name) ? `${name} is no supervisor now` : `${name} was no supervisor`);
          return;
        }
        if (opts.pin) {
          await auth.setSupervisorPin(name, await readNewPin(io, name, pinProblem));
          io.out(`supervisor PIN of ${name} set`);
        }
        if (opts.badge)
          io.out(`supervisor badge of ${name} (print as a barcode): ${auth.newSupervisorBadge(name)}`);
      });
    });
  user
    .command("supervisors")
    .description("list the supervisors (name, role, badge, PIN)")
    .action((_opts, cmd: Command) =>
      withAuth(cmd, cli, (auth) => {
        for (const s of auth.listSupervisors())
          io.out(
            `${printable(s.username)}\t${s.role}\tbadge ${s.badge ? "yes" : "no"}\tpin ${s.pin ? "yes" : "no"}`,
          );
      }),
    );
}
