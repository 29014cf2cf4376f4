/**
 * sd_notify(3) for the agent: readiness, watchdog pings, stopping and status lines to the service
 * manager, over the datagram socket named by `$NOTIFY_SOCKET` (a path, or `@name` for an abstract
 * socket). Nothing happens when `$NOTIFY_SOCKET` is unset: the agent is not run by systemd.
 *
 * Why a child process: Node 20 cannot open a unix datagram socket (`dgram` speaks UDP only, `net` only
 * streams), and the packages that add one (`unix-dgram`, `sd-notify`) are native modules built with
 * node-gyp, which the agent avoids beyond its device and database drivers. So each message is sent by
 * `systemd-notify` (systemd-notify(1), package `systemd`, on every box that runs the unit). Its sender
 * is then not the main process, hence the unit's `NotifyAccess=all`. The catch with a short-lived sender
 * is that the manager looks the sender's PID up to find its unit when it reads the datagram; a sender
 * that has already exited cannot be placed and its message is dropped. systemd-notify has closed that
 * race since systemd 246: after the message it sends `BARRIER=1` with a pipe and waits (up to 5 s) until
 * the manager has processed both (sd_notify_barrier(3)); `--no-block` would skip that and must not be
 * used. Debian 12 ships systemd 252. Both socket kinds are handled by libsystemd's own code.
 *
 * Messages are sent one at a time, in order; what is asked for while one is on its way goes out merged
 * in the next (a later `STATUS=` replaces an earlier one), so a slow manager never piles up processes.
 */
import { spawn } from "node:child_process";
import type { Logger } from "pino";

/** The variables the service manager sets (systemd.exec(5), "Environment variables in spawned processes"). */
export interface NotifyEnv {
  NOTIFY_SOCKET?: string | undefined;
  WATCHDOG_USEC?: string | undefined;
  WATCHDOG_PID?: string | undefined;
  PATH?: string | undefined;
}

/**
 * How often to ping the watchdog: half of `$WATCHDOG_USEC`, as sd_watchdog_enabled(3) advises, or
 * undefined when there is no watchdog or it watches another process (`$WATCHDOG_PID`).
 */
export function watchdogIntervalMs(env: NotifyEnv, pid: number = process.pid): number | undefined {
  const usec = Number(env.WATCHDOG_USEC);
  if (!env.NOTIFY_SOCKET || !Number.isFinite(usec) || usec <= 0) return undefined;
  if (env.WATCHDOG_PID && Number(env.WATCHDOG_PID) !== pid) return undefined;
  return Math.max(1, Math.floor(usec / 2000));
}

export interface SystemdNotifier {
  /** Queues `KEY=value` assignments (`READY=1`, `STATUS=…`); they go out in one message, in order. */
  notify(...assignments: string[]): void;
  /** Resolves once everything queued has been handed to the service manager (or failed). */
  settled(): Promise<void>;
}

export interface NotifierOptions {
  log: Logger;
  /** The program that sends a message; `systemd-notify` on the PATH. */
  command?: string;
}

/** A notifier for `$NOTIFY_SOCKET`, or undefined when the agent is not run by a service manager. */
export function systemdNotifier(env: NotifyEnv, opts: NotifierOptions): SystemdNotifier | undefined {
  const socket = env.NOTIFY_SOCKET;
  if (!socket) return undefined;
  const command = opts.command ?? "systemd-notify";
  const childEnv = { NOTIFY_SOCKET: socket, PATH: env.PATH ?? "/usr/sbin:/usr/bin:/sbin:/bin" };
  const pending = new Map<string, string>();
  let sending: Promise<void> | undefined;
  let failing = false;

  const report = (problem: string) => {
    // a failed watchdog ping repeats every few seconds: warn once until a message gets through again
    if (failing) opts.log.debug({ problem }, "systemd notify failed");
    else
      opts.log.warn(
        { problem, socket },
        "systemd notify failed: the service manager may not see the agent's state",
      );
    failing = true;
  };

  const sendOne = (assignments: string[]) =>
    new Promise<void>((resolve) => {
      let stderr = "";
      const child = spawn(command, assignments, { env: childEnv, stdio: ["ignore", "ignore", "pipe"] });
      child.stderr?.on("data", (d) => {
        stderr += String(d);
      });
      child.once("error", (e) => {
        report(`${command}: ${e.message}`);
        resolve();
      });
      child.once("close", (code) => {
        if (code === 0) failing = false;
        else if (code !== null) report(`${command} exited with ${code}: ${stderr.trim()}`);
        resolve();
      });
    });

  const drain = async () => {
    while (pending.size > 0) {
      const assignments = [...pending].map(([k, v]) => `${k}=${v}`);
      pending.clear();
      await sendOne(assignments);
    }
    sending = undefined;
  };

  return {
    notify(...assignments) {
      for (const a of assignments) {
        const eq = a.indexOf("=");
        // one line each: a newline would start another assignment in the message
        pending.set(a.slice(0, eq), a.slice(eq + 1).replace(/\s*\n\s*/g, " "));
      }
      sending ??= drain();
    },
    settled: () => sending ?? Promise.resolve(),
  };
}
