import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { writeFileDurably } from "../../durable-file.js";
import { randomSecret } from "./password.js";

export const CREDENTIALS_FILE = "initial-credentials.json";

export interface CredentialSettings {
  clientId: string;
  clientSecret?: string | undefined;
  adminUser: string;
  adminPassword?: string | undefined;
  /** `metrics.token`: the `/metrics` scrape credential (scrape-token.ts). */
  metrics?: { token?: string | undefined };
}

interface CredentialStore {
  setClientSecret(secret: string): void;
  hasClientSecret(): boolean;
  setScrapeToken(token: string): void;
  hasScrapeToken(): boolean;
  hasUser(username: string): boolean;
  addUser(username: string, password: string, role: "admin"): Promise<number>;
}

/** The secrets a first start made, as the file holds them (any left there by an earlier start stay). */
type Generated = Record<string, string>;

/** What the file held, or why it could not be read (empty or damaged: a cut before durable writes). */
function earlierFile(file: string): { saved: Generated; damaged?: string } {
  if (!existsSync(file)) return { saved: {} };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    return { saved: {}, damaged: (e as Error).message };
  }
  if (text.trim() === "") return { saved: {}, damaged: "the file is empty" };
  try {
    const saved = JSON.parse(text) as unknown;
    if (typeof saved === "object" && saved !== null && !Array.isArray(saved))
      return { saved: saved as Generated };
    return { saved: {}, damaged: "the file holds no JSON object" };
  } catch {
    return { saved: {}, damaged: "the file is not JSON" };
  }
}

/** A secret to generate: the one a crashed first start already wrote to the file, else a new one. */
function secretFor(saved: Generated, key: string, length: number): string {
  const earlier = saved[key];
  return typeof earlier === "string" && earlier.length >= 16 ? earlier : randomSecret(length);
}

/**
 * Makes sure the Basic client credential, the first API user and the `/metrics` scrape token exist.
 * What is configured wins; what is not configured is generated once, written to a file only the owner
 * can read (keeping what an earlier start wrote there), and its path logged: never a well-known
 * default (issue: Foundation, Config).
 *
 * Crash-safe (docs/operations.md#what-survives-a-power-cut): the file is written durably BEFORE the
 * hashes are committed, so a crash between the two leaves secrets in the file that the database does
 * not know yet, and the next start takes them from the file instead of making new ones. A crash before
 * the write leaves nothing committed, and the next start generates afresh.
 */
export async function ensureCredentials(
  auth: CredentialStore,
  settings: CredentialSettings,
  dataDir: string,
  log: Logger,
): Promise<{ generatedFile?: string }> {
  const file = join(dataDir, CREDENTIALS_FILE);
  const { saved, damaged } = earlierFile(file);
  const generated: Generated = {};
  const commits: Array<() => unknown> = [];

  if (settings.clientSecret) auth.setClientSecret(settings.clientSecret);
  else if (!auth.hasClientSecret()) {
    const secret =
      saved.clientId === settings.clientId ? secretFor(saved, "clientSecret", 24) : randomSecret(24);
    generated.clientId = settings.clientId;
    generated.clientSecret = secret;
    generated.basicAuthorization = `Basic ${Buffer.from(`${settings.clientId}:${secret}`).toString("base64")}`;
    commits.push(() => auth.setClientSecret(secret));
  }
  if (!auth.hasUser(settings.adminUser)) {
    const password =
      settings.adminPassword ??
      (saved.adminUser === settings.adminUser ? secretFor(saved, "adminPassword", 18) : randomSecret(18));
    if (!settings.adminPassword) {
      generated.adminUser = settings.adminUser;
      generated.adminPassword = password;
    }
    // the first user is an admin: existing set-ups keep every right (docs/security.md#roles)
    commits.push(() => auth.addUser(settings.adminUser, password, "admin"));
  }
  // a station that predates the scrape credential gets one on its next start, added to the file
  const configuredToken = settings.metrics?.token;
  if (configuredToken) auth.setScrapeToken(configuredToken);
  else if (!auth.hasScrapeToken()) {
    const token = secretFor(saved, "metricsToken", 24);
    generated.metricsToken = token;
    commits.push(() => auth.setScrapeToken(token));
  }

  const made = Object.keys(generated).length > 0;
  if (damaged !== undefined)
    log.error(
      { file, problem: damaged },
      made
        ? "the generated credentials file was damaged: it is written again with the credentials made now"
        : "the generated credentials file is damaged; the secrets it held cannot be read back (the database keeps only their hashes): if nobody kept them, set new ones (pps-edge user passwd; clientSecret and metrics.token in the config). The agent runs on",
    );
  if (made)
    writeFileDurably(
      file,
      `${JSON.stringify({ ...saved, ...generated, createdAt: new Date().toISOString() }, null, 2)}\n`,
      0o600,
    );
  for (const commit of commits) await commit();
  if (!made) return {};
  log.warn(
    { file, generated: Object.keys(generated) },
    "generated credentials written (owner-readable only)",
  );
  return { generatedFile: file };
}
