/**
 * The agent's logger (pino): JSON lines with string level names, every line naming the station
 * (docs/architecture.md#conventions). Under systemd each line carries its syslog priority, so the journal
 * keeps it; on a terminal the lines are pino-pretty's readable, coloured ones. Secrets are censored.
 * docs/operations.md#logs.
 */
import { fstatSync } from "node:fs";
import { createRequire } from "node:module";
import { isatty } from "node:tty";
import pino, { type DestinationStream, type Logger } from "pino";
import type PinoPretty from "pino-pretty";
import { printable, printableJson } from "./domain/printable.js";
import { type BoundedLogOutput, boundedStdout } from "./log-destination.js";

const require = createRequire(import.meta.url);

export interface LogSettings {
  site: string;
  ppsId: string;
  log: { level: string; format: "auto" | "json" | "pretty" };
}

/** Where the lines go and what is there (`stdoutOutput()` finds out for stdout). */
export interface LogOutput {
  /** The stream written to; stdout when absent. */
  destination?: DestinationStream;
  /** The journal reads it: every line starts with its `<N>` priority. */
  journal: boolean;
  /** A terminal reads it: readable lines in `auto` format. */
  tty: boolean;
}

/**
 * systemd sets JOURNAL_STREAM to `<device>:<inode>` of the stream it connected to the journal; that is
 * the journal only while stdout is still that stream (systemd.exec(5), "Environment variables in spawned
 * processes"): a redirection in between must not get priority prefixes.
 */
export function isJournalStream(journalStream: string | undefined, fd: number): boolean {
  if (!journalStream) return false;
  try {
    const st = fstatSync(fd, { bigint: true });
    return journalStream === `${st.dev}:${st.ino}`;
  } catch {
    return false;
  }
}

export function stdoutOutput(env: Record<string, string | undefined> = process.env): LogOutput {
  const journal = isJournalStream(env.JOURNAL_STREAM, 1);
  return { journal, tty: !journal && isatty(1) };
}

/**
 * sd-daemon(3): a line written to a stream connected to the journal may start with `<N>`, its syslog
 * priority (0 emerg … 7 debug), which journald stores as PRIORITY (SyslogLevelPrefix=, on by default:
 * systemd.exec(5)). `fatal` is crit (2), not emerg or alert: one service failing does not make the
 * system unusable, and journald sends emerg messages to every logged-in terminal.
 */
export const JOURNAL_PRIORITY: Record<string, number> = {
  fatal: 2,
  error: 3,
  warn: 4,
  info: 6,
  debug: 7,
  trace: 7,
};

const LEVEL_KEY = '"level":"';
/** By the level name's first letter, which tells them apart: f, e, w, i, d, t. */
const PREFIX = new Map(Object.entries(JOURNAL_PRIORITY).map(([label, n]) => [label.charCodeAt(0), `<${n}>`]));

/** Prefixes a JSON line (its level comes first) with the journal priority of its level. */
export function withPriority(line: string): string {
  const at = line.indexOf(LEVEL_KEY) + LEVEL_KEY.length;
  return (PREFIX.get(line.charCodeAt(at)) ?? "<6>") + line;
}

/**
 * Secrets the configuration and requests carry, at the top of a log object or one or two levels down
 * (pino's redact paths name keys; they have no "any depth"). Nothing logs these today: this is what
 * keeps a future `log.info({ config })` or `{ headers }` from leaking them.
 */
const SECRET_KEYS = [
  "password",
  "adminPassword",
  "clientSecret",
  "client_secret",
  "basicAuthorization",
  "metricsToken",
  "access_token",
  "refresh_token",
  "accessToken",
  "refreshToken",
  "token",
  "authorization",
  "Authorization",
  "cookie",
  "Cookie",
  '["set-cookie"]',
  "key",
  "screenKey",
  "keys",
  // a webhook endpoint's signing secret and the signature made with it (docs/webhooks.md#signature)
  "secret",
  '["webhook-signature"]',
];

const SECRET_NAMES = new Set(SECRET_KEYS.map((k) => k.replace(/^\["(.*)"\]$/, "$1")));

/**
 * A copy of `value` with the value of every secret key above, at any depth, replaced by "[redacted]":
 * the same secrets the log keeps out, for what `pps-edge diag` puts in a support ticket.
 */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      SECRET_NAMES.has(k) && v !== undefined ? "[redacted]" : redactSecrets(v),
    ]),
  );
}

export const REDACT_PATHS = SECRET_KEYS.flatMap((k) => {
  const sep = k.startsWith("[") ? "" : ".";
  return [k, `*${sep}${k}`, `*.*${sep}${k}`];
});

/**
 * For the pretty stream, which decodes the JSON line before it prints: the C0 escapes JSON made (ESC is
 * `\u001b`) and the raw characters JSON keeps are escaped once more, so they print as text. Newlines
 * stay: a stack trace is read on a terminal.
 */
function prettyPrintable(line: string): string {
  return printableJson(line).replace(/\\u([0-9a-f]{4})/g, (sequence, hex: string) => {
    const c = String.fromCharCode(Number.parseInt(hex, 16));
    return printable(c) === c ? sequence : `\\${sequence}`;
  });
}

/**
 * pino-pretty as a synchronous stream (no worker thread). Loaded only when used: it adds about 50 ms to
 * a start, which a service under systemd does not need.
 */
function prettyStream(output: LogOutput): DestinationStream {
  const pretty = require("pino-pretty") as typeof PinoPretty;
  return pretty({
    colorize: output.tty,
    sync: true,
    // one line per entry, local time; the station is the terminal's own
    singleLine: true,
    translateTime: "SYS:HH:MM:ss.l",
    ignore: "station",
    ...(output.destination ? { destination: output.destination } : {}),
  });
}

/** The bounded destination of each logger that writes to standard output (`droppedLogLines`). */
const bounded = new WeakMap<Logger, BoundedLogOutput>();

/**
 * The lines a logger made by `createLogger` dropped because its output was not read
 * (docs/operations.md#when-nobody-reads-the-log); undefined for a logger made elsewhere or one writing
 * to a terminal or a given stream.
 */
export function droppedLogLines(log: Logger): Pick<BoundedLogOutput, "dropped" | "onDrop"> | undefined {
  return bounded.get(log);
}

export function createLogger(settings: LogSettings, output: LogOutput = stdoutOutput()): Logger {
  const format = settings.log.format === "auto" ? (output.tty ? "pretty" : "json") : settings.log.format;
  // a terminal is written synchronously, as before; anything else through the bounded buffer
  const stdout = !output.destination && !output.tty ? boundedStdout() : undefined;
  const target: LogOutput = stdout ? { ...output, destination: stdout.stream } : output;
  const destination = format === "pretty" ? prettyStream(target) : target.destination;
  const options = {
    level: settings.log.level,
    base: { station: `${settings.site}/${settings.ppsId}` },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    hooks: {
      // every line printable (domain/printable.ts): a user name a failed login sent cannot act on the
      // terminal that shows the log; prefixes only where the journal parses JSON lines
      streamWrite:
        format === "pretty"
          ? prettyPrintable
          : output.journal
            ? (line: string) => withPriority(printableJson(line))
            : printableJson,
    },
  };
  const logger = destination ? pino(options, destination) : pino(options);
  if (stdout) {
    bounded.set(logger, stdout);
    stdout.onDrained((n) =>
      logger.warn(
        { droppedLines: n, droppedTotal: stdout.dropped() },
        "log lines dropped: the log output was not read",
      ),
    );
  }
  return logger;
}

export type { Logger };
