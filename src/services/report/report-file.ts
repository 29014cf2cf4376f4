import { open, rename } from "node:fs/promises";
import { join } from "node:path";

export function reportFileName(id: number): string {
  return `inventory-${id}.csv`;
}

/** Writes and syncs a file, then renames it into place: a report file is whole or absent. */
export async function writeDurably(dir: string, name: string, text: string): Promise<void> {
  const tmp = join(dir, `.${name}.tmp`);
  const file = await open(tmp, "w", 0o640);
  try {
    await file.writeFile(text, "utf8");
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(tmp, join(dir, name));
  const folder = await open(dir, "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/**
 * The base of the URLs the agent hands out: `http.publicUrl` when set, else `http://host:port` (`https`
 * with `http.tls`), with the machine's name for a wildcard listen address (0.0.0.0 or ::) that no client
 * could connect to.
 */
export function publicBaseUrl(
  http: {
    host: string;
    port: number;
    publicUrl?: string | undefined;
    tls?: { certFile?: string | undefined };
  },
  hostname: string,
): string {
  if (http.publicUrl) return http.publicUrl;
  const host = http.host === "0.0.0.0" || http.host === "::" ? hostname : http.host;
  const scheme = http.tls?.certFile ? "https" : "http";
  return `${scheme}://${host.includes(":") ? `[${host}]` : host}:${http.port}`;
}
