/**
 * The foundation's start failures a maintainer can cause, each as the StartError that names the
 * config key and the fix (printed as one line by the command line): a station file or firmware
 * profile at fault, a data folder that cannot be written or is held by another agent, a database that
 * cannot be opened, is damaged or was written by a newer version. Anything else stays what it is: a
 * bug, with its stack in the log.
 */
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Config } from "../config/config.schema.js";
import { type AgentLock, LOCK_FILE, lockDataFolder } from "../db/agent-lock.js";
import { BACKUPS_DIR, databaseProblems, lastBackup } from "../db/integrity.js";
import {
  type DatabaseHandle,
  newerDatabaseIn,
  type OpenOptions,
  openDatabase,
  type Sqlite,
} from "../db/open.js";
import { describeWriter, type NewerDatabase, NewerDatabaseError } from "../db/written-by.js";
import {
  DEFAULT_PROFILES_DIR,
  type LoadedStation,
  loadStation,
} from "../devices/station-file/station-file.js";
import { isAppError } from "../domain/errors.js";
import { oneLine, StartError } from "../start-error.js";

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The station file and its firmware profiles; a bad one names its key (station.file, devices.profilesDir). */
export async function loadStationOrExplain(config: Config): Promise<LoadedStation> {
  const { file } = config.station;
  const profilesDir = config.devices.profilesDir ?? DEFAULT_PROFILES_DIR;
  try {
    return await loadStation({ file, profilesDir, seats: config.station.seats, bins: config.station.bins });
  } catch (e) {
    if (isAppError(e) && file !== undefined && e.details?.file === file) {
      const unread = e.errors.some((x) => x.message.startsWith("cannot be read"));
      const fix = unread
        ? "set station.file to a readable station file, or remove it for the simulated station"
        : "correct the station file at that path (`pps-edge profiles` lists the drivers and profiles)";
      throw new StartError(e.message, "station.file", fix, { cause: e });
    }
    if (isAppError(e)) {
      const fix = "correct or remove that profile (`pps-edge profiles DIR` checks a folder)";
      throw new StartError(e.message, "devices.profilesDir", fix, { cause: e });
    }
    if ((e as { syscall?: string }).syscall === "scandir") {
      const problem = `the firmware profiles folder ${profilesDir} cannot be read: ${message(e)}`;
      const fix = "set devices.profilesDir to a folder of profiles, or remove it for the shipped ones";
      throw new StartError(problem, "devices.profilesDir", fix, { cause: e });
    }
    throw e;
  }
}

const FOLDER_FIX = "create it for the agent's user, or set dataDir to a folder that user may write";

/** Creates the data folder and takes its lock: one agent per folder (db/agent-lock.ts). */
export function holdDataFolder(dataDir: string, now: () => number): AgentLock {
  const cannot = (e: unknown, what: string) =>
    new StartError(
      `the data folder ${dataDir} cannot be written: ${what}${message(e)}`,
      "dataDir",
      FOLDER_FIX,
      {
        cause: e,
      },
    );
  let got: ReturnType<typeof lockDataFolder>;
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o750 });
  } catch (e) {
    throw cannot(e, "");
  }
  try {
    got = lockDataFolder(dataDir, new Date(now()).toISOString());
  } catch (e) {
    throw cannot(e, `${join(dataDir, LOCK_FILE)}: `);
  }
  if ("lock" in got) return got.lock;
  const who = got.heldBy ? `pid ${got.heldBy.pid}, started ${got.heldBy.since}` : "pid unknown";
  throw new StartError(
    `the data folder ${dataDir} is in use by another pps-edge agent (${who})`,
    "dataDir",
    "stop that agent first, or give this one a dataDir of its own",
  );
}

const DAMAGED = /^SQLITE_(CORRUPT|NOTADB)/;

/**
 * A damaged database, on one line: the file, what SQLite found first, and the backup to restore
 * (`<dataDir>/backups/*.db`, the newest; db/integrity.ts). Starting on it would answer 500s later.
 */
function damaged(path: string, problems: string[], cause?: unknown): StartError {
  const more = problems.length > 1 ? `, and ${problems.length - 1} more` : "";
  const dataDir = dirname(path);
  const backup = lastBackup(dataDir);
  const fix = backup
    ? `stop here and restore the last backup, ${backup}: pps-edge restore ${backup} (\`pps-edge check\` lists every problem)`
    : `no backup found in ${join(dataDir, BACKUPS_DIR)}; restore the file from elsewhere, or move it aside to start an empty station (\`pps-edge check\` lists every problem)`;
  const first = oneLine(problems[0] ?? "").slice(0, 200);
  return new StartError(`the database ${path} is damaged (quick_check: ${first}${more})`, "dataDir", fix, {
    cause,
  });
}

/** A backup this version can open: none of its migrations is newer than this build's. */
function openableBackup(path: string): boolean {
  try {
    return newerDatabaseIn(path) === undefined;
  } catch {
    return false;
  }
}

/**
 * A database that a newer version migrated (db/written-by.ts), on one line: the version that wrote it,
 * this version, and the way back (install that version again, or restore the newest backup this version
 * can open, `pps-edge restore`). Also what `pps-edge check` reports. Starting would run this version on
 * a schema it does not know.
 */
export function newerDatabase(path: string, found: NewerDatabase): StartError {
  const dataDir = dirname(path);
  const backup = lastBackup(dataDir, openableBackup);
  const install = found.writer
    ? `install pps-edge ${found.writer.version} again`
    : "install the newer pps-edge again";
  const fix = backup
    ? `${install}, or restore a backup made before the upgrade: pps-edge restore ${backup}`
    : `${install}; no backup this version can open was found in ${join(dataDir, BACKUPS_DIR)}`;
  return new StartError(
    `the database ${path} was written by ${describeWriter(found)}, this is ${found.thisVersion}`,
    "dataDir",
    fix,
  );
}

/**
 * The station database, checked whole before anything is written to it (PRAGMA quick_check); one that
 * cannot be opened, is damaged or cannot be migrated names the file.
 */
export function openDatabaseOrExplain(path: string, opts: OpenOptions): DatabaseHandle {
  const check = (sqlite: Sqlite) => {
    const problems = databaseProblems(sqlite, "quick");
    if (problems.length) throw damaged(path, problems);
  };
  try {
    return openDatabase(path, { ...opts, check });
  } catch (e) {
    if (e instanceof StartError) throw e;
    if (e instanceof NewerDatabaseError) throw newerDatabase(path, e.found);
    const code = String((e as { code?: string }).code);
    if (DAMAGED.test(code)) throw damaged(path, [message(e)], e);
    const fix = code.startsWith("SQLITE_BUSY")
      ? "close the program that holds the database open for writing (db.busyTimeoutMs is how long the agent waits)"
      : "check the file and its permissions; restore it from a backup if it is damaged";
    throw new StartError(`the database ${path} cannot be opened: ${message(e)}`, "dataDir", fix, {
      cause: e,
    });
  }
}
