/**
 * A backup that leaves the event loop free at any size (docs/operations.md#backup-and-restore): `backupDatabase`
 * run in a worker thread (db/backup-worker.ts). The copy stays one step, so it is one consistent snapshot
 * even while the agent writes (db/backup.ts says why), but that step, the integrity check and the hash
 * block only the worker; the agent goes on answering scans and requests meanwhile.
 */
import { Worker } from "node:worker_threads";
import type { BackupResult } from "./backup.js";

/**
 * The worker's module beside this one: `.js` in the build; when the sources run (tests, `tsx`), the
 * `.ts` module loaded through tsx, registered in the worker first (Node 20 applies no `--import` hook to
 * a worker's own entry module).
 */
function workerModule(): { entry: URL | string; eval: boolean } {
  if (!import.meta.url.endsWith(".ts"))
    return { entry: new URL("./backup-worker.js", import.meta.url), eval: false };
  const url = new URL("./backup-worker.ts", import.meta.url).href;
  const entry = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(url)}); });`;
  return { entry, eval: true };
}

/** `backupDatabase(source, target)` in a worker thread: its result, or its error with the same message. */
export function backupOffLoop(source: string, target: string): Promise<BackupResult> {
  const { entry, eval: asCode } = workerModule();
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry, { workerData: { source, target }, eval: asCode });
    let settled = false;
    worker.once("message", (m: { result?: BackupResult; error?: string }) => {
      settled = true;
      if (m.result) resolve(m.result);
      else reject(new Error(m.error ?? "the backup failed"));
    });
    worker.once("error", (e) => {
      settled = true;
      reject(e);
    });
    worker.once("exit", (code) => {
      if (!settled) reject(new Error(`the backup's thread ended (exit code ${code}) without an answer`));
    });
  });
}
