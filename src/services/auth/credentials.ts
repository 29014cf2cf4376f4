import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
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

function ensureClientSecret(auth: CredentialStore, settings: CredentialSettings, generated: Generated) {
  if (settings.clientSecret) auth.setClientSecret(settings.clientSecret);
  else if (!auth.hasClientSecret()) {
    const secret = randomSecret(24);
    auth.setClientSecret(secret);
    generated.clientId = settings.clientId;
    generated.clientSecret = secret;
    generated.basicAuthorization = `Basic ${Buffer.from(`${settings.clientId}:${secret}`).toString("base64")}`;
  }
}

/** A station that predates the scrape credential gets one on its next start, added to the file. */
function ensureScrapeToken(auth: CredentialStore, settings: CredentialSettings, generated: Generated) {
  const configured = settings.metrics?.token;
  if (configured) auth.setScrapeToken(configured);
  else if (!auth.hasScrapeToken()) {
    const token = randomSecret(24);
    auth.setScrapeToken(token);
    generated.metricsToken = token;
  }
}

function earlierFile(file: string): Generated {
  if (!existsSync(file)) return {};
  try {
    const saved = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return typeof saved === "object" && saved !== null ? (saved as Generated) : {};
  } catch {
    return {};
  }
}

/**
 * Makes sure the Basic client credential, the first API user and the `/metrics` scrape token exist.
 * What is configured wins; what is not configured is generated once, written to a file only the owner
 * can read (keeping what an earlier start wrote there), and its path logged: never a well-known
 * default (issue: Foundation, Config).
 */
export async function ensureCredentials(
  auth: CredentialStore,
  settings: CredentialSettings,
  dataDir: string,
  log: Logger,
): Promise<{ generatedFile?: string }> {
  const generated: Generated = {};
  ensureClientSecret(auth, settings, generated);
  if (!auth.hasUser(settings.adminUser)) {
    const password = settings.adminPassword ?? randomSecret(18);
    // the first user is an admin: existing set-ups keep every right (docs/security.md#roles)
    await auth.addUser(settings.adminUser, password, "admin");
    if (!settings.adminPassword) {
      generated.adminUser = settings.adminUser;
      generated.adminPassword = password;
    }
  }
  ensureScrapeToken(auth, settings, generated);
  if (Object.keys(generated).length === 0) return {};
  const file = join(dataDir, CREDENTIALS_FILE);
  const content = { ...earlierFile(file), ...generated, createdAt: new Date().toISOString() };
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above is subject to umask only on creation
  log.warn(
    { file, generated: Object.keys(generated) },
    "generated credentials written (owner-readable only)",
  );
  return { generatedFile: file };
}
