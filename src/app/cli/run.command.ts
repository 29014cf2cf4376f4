/**
 * `pps-edge run`: the agent itself (docs/architecture.md#the-composition-root). It creates the data
 * folder and the database on its first start. A start failure a maintainer can cause (a port in use, a
 * config or station file at fault, the data folder held by another agent) is one line on standard
 * error naming the cause, the config key and the fix, and exit code 1; its stack goes to the log at
 * debug level. Once up it runs until SIGTERM or SIGINT.
 */
import { Command } from "commander";
import { failureLine, isStartError } from "../../start-error.js";
import { rootWarning } from "../run-as-root.js";
import { systemdNotifier } from "../systemd-notify.js";
import { type Cli, EXIT, loadCliConfig } from "./context.js";

async function runAgent(cmd: Command, cli: Cli): Promise<number> {
  const { io } = cli;
  let config: ReturnType<typeof loadCliConfig>["config"];
  try {
    config = loadCliConfig(cmd, io).config;
  } catch (e) {
    io.err(failureLine(e, true));
    return EXIT.failure;
  }
  // loaded here, not with the command line: --help, --version and the other commands start faster
  const [{ createAgent }, { createLogger }] = await Promise.all([
    import("../agent.js"),
    import("../../log.js"),
  ]);
  const log = createLogger(config);
  const asRoot = rootWarning(process.getuid?.());
  if (asRoot) log.warn(asRoot);
  const agent = createAgent(config, { log });
  try {
    await agent.start();
  } catch (e) {
    // a cause the maintainer can fix needs no stack; anything else is a bug and keeps it in the log
    if (isStartError(e)) log.debug({ err: e }, "start failed");
    else log.fatal({ err: e }, "start failed");
    const line = failureLine(e, true);
    io.err(line);
    await agent.stop().catch(() => {});
    // under systemd, `systemctl status pps-edge` shows why (src/app/systemd.part.ts sends the rest)
    const notifier = systemdNotifier(io.env, { log });
    notifier?.notify(`STATUS=${line}`);
    await notifier?.settled();
    return EXIT.failure;
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    agent.stop().then(
      () => process.exit(EXIT.ok),
      (err) => {
        log.error({ err }, "stop failed");
        process.exit(EXIT.failure);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  return EXIT.keepRunning;
}

export function defineRun(cli: Cli): Command {
  return new Command("run")
    .description("start the agent (HTTP, station, MQTT sync); creates the database on the first start")
    .action(async (_opts, cmd: Command) => {
      cli.code = await runAgent(cmd, cli);
    });
}
