import { statfsSync } from "node:fs";
import { dirname } from "node:path";
import type { StorageUse } from "../domain/storage-budget.js";
import type { Sqlite } from "./open.js";

/**
 * What the station database takes and what its disk has left (domain/storage-budget.ts). The database's
 * bytes are its pages in use (`page_count` less the free list, sqlite.org/pragma.html): pages freed by a
 * delete are reused before the file grows, so deleting makes room at once. Two pragmas and one statfs:
 * cheap enough before every change.
 */
export function storageMeter(sqlite: Sqlite): () => StorageUse {
  const pages = sqlite.prepare<[], { n: number }>("SELECT page_count AS n FROM pragma_page_count");
  const free = sqlite.prepare<[], { n: number }>("SELECT freelist_count AS n FROM pragma_freelist_count");
  const pageSize = sqlite.pragma("page_size", { simple: true }) as number;
  const folder = sqlite.memory ? "." : dirname(sqlite.name);
  return () => {
    const fs = statfsSync(folder);
    return {
      databaseBytes: ((pages.get()?.n ?? 0) - (free.get()?.n ?? 0)) * pageSize,
      freeDiskBytes: fs.bavail * fs.bsize,
    };
  };
}
