/**
 * The backup's thread (db/backup-off-loop.ts starts it): the copy, its integrity check and its SHA-256
 * are synchronous work proportional to the database's size (a second and more for a few hundred MB), so
 * they run here, in a worker thread (Node.js worker_threads), never on the agent's event loop.
 */
import { parentPort, workerData } from "node:worker_threads";
import { backupDatabase } from "./backup.js";

const { source, target } = workerData as { source: string; target: string };
backupDatabase(source, target).then(
  (result) => parentPort?.postMessage({ result }),
  (e: unknown) => parentPort?.postMessage({ error: e instanceof Error ? e.message : String(e) }),
);
