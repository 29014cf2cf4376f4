import pino, { type Logger } from "pino";

/** JSON lines on stdout (journald keeps them); every line names the station (docs/architecture.md#conventions). */
export function createLogger(level: string, station: { site: string; ppsId: string }): Logger {
  return pino({
    level,
    base: { station: `${station.site}/${station.ppsId}` },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ["password", "*.password", "clientSecret", "*.clientSecret"], censor: "[redacted]" },
  });
}

export type { Logger };
