/**
 * The seats' screen keys for the station box's kiosk user (docs/operations.md#kiosk): one file per seat,
 * `<dir>/<seat>.key`, holding the key and a newline, mode 0640 and the group of the folder, so the kiosk
 * user (a member of that group, e.g. `pps-edge-kiosk`) reads its seat's key while `screen-keys.json` stays
 * the agent's alone (0600 in the data folder). The agent's user must be a member of the group too, to give
 * the files to it. Written durably; a file that already holds the key is only given its mode and group.
 */
import { chmodSync, chownSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { writeFileDurably } from "../../durable-file.js";

export const KIOSK_KEY_MODE = 0o640;

/** The file of a seat's key in the kiosk folder. */
export const kioskKeyFile = (dir: string, seat: string) => join(dir, `${seat}.key`);

function holds(file: string, text: string): boolean {
  try {
    return readFileSync(file, "utf8") === text;
  } catch {
    return false;
  }
}

/** Writes each seat's key into `dir` for the kiosk user; a problem is logged, never stops the agent. */
export function writeKioskKeys(dir: string, keys: ReadonlyMap<string, string>, log: Logger): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o750 });
    const { gid } = statSync(dir);
    for (const [seat, key] of keys) {
      const file = kioskKeyFile(dir, seat);
      if (!holds(file, `${key}\n`)) writeFileDurably(file, `${key}\n`, KIOSK_KEY_MODE);
      // the process's umask may have narrowed the mode; the group is the folder's (the kiosk's)
      chmodSync(file, KIOSK_KEY_MODE);
      chownSync(file, process.getuid?.() ?? -1, gid);
    }
    log.info({ dir, seats: [...keys.keys()] }, "operator screen keys written for the kiosk (group-readable)");
  } catch (err) {
    log.error(
      { err, dir },
      "operator screen keys for the kiosk not written: the folder must be the agent's to write and its group one the agent's user is in",
    );
  }
}
