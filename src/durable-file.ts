/**
 * Files that must survive a power cut whole or not at all (docs/operations.md#what-survives-a-power-cut):
 * the generated credentials, the screen keys, reports, backups, label files. A file is written to a
 * temporary name in the same folder, fsynced, renamed over its name, and the folder fsynced: rename is
 * atomic, but until the folder's entry reaches the disk a power cut can undo the rename or the create
 * (ext4 and XFS keep directory updates in the journal only until the next commit). Without the file's
 * fsync the rename can reach the disk before the data, leaving an empty file under the final name,
 * which is what a cut did to `screen-keys.json` before.
 */
import { closeSync, fsyncSync, openSync, readdirSync, renameSync, rmSync, writeSync } from "node:fs";
import { open, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** The temporary name a durable write uses beside `path`; `leftovers` finds these after a crash. */
export function temporaryName(path: string, pid = process.pid): string {
  return join(dirname(path), `.${basename(path)}.${pid}.tmp`);
}

/** fsync of a file or a folder by path. */
export function fsyncPath(path: string): void {
  const fd = openSync(path, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `data` to `path` atomically and durably (see above); `mode` applies to the new file. */
export function writeFileDurably(path: string, data: string | Uint8Array, mode = 0o600): void {
  const tmp = temporaryName(path);
  const fd = openSync(tmp, "w", mode);
  try {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  fsyncPath(dirname(path));
}

/** The same without blocking the event loop, for files that can be large (inventory reports). */
export async function writeFileDurablyAsync(path: string, data: string, mode = 0o640): Promise<void> {
  const tmp = temporaryName(path);
  const file = await open(tmp, "w", mode);
  try {
    await file.writeFile(data, "utf8");
    await file.sync();
  } catch (err) {
    await file.close();
    await rm(tmp, { force: true });
    throw err;
  }
  await file.close();
  await rename(tmp, path);
  const folder = await open(dirname(path), "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/**
 * Removes what an interrupted durable write or backup left in `dir`: temporary files of durable writes
 * and names ending in one of `suffixes` (a backup's `.partial` and its side files). Answers the paths.
 */
export function removeLeftovers(dir: string, suffixes: readonly string[] = []): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const stale = names.filter(
    (n) => /^\..+\.\d+\.tmp$/.test(n) || suffixes.some((s) => n.endsWith(s) || n.includes(`${s}-`)),
  );
  for (const n of stale) rmSync(join(dir, n), { force: true, recursive: true });
  return stale.map((n) => join(dir, n));
}
