import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "pino";
import { randomSecret } from "./password.js";

export const CREDENTIALS_FILE = "initial-credentials.json";

export interface CredentialSettings {
  clientId: string;
  clientSecret?: string | undefined;
  adminUser: string;
  adminPassword?: string | undefined;
}

/**
 * Makes sure the Basic client credential and the first API user exist. What is configured wins;
 * what is not configured is generated once, written to a file only the owner can read, and its path
 * logged: never a well-known default (issue: Foundation, Config).
 */
export async function ensureCredentials(
  auth: {
    setClientSecret(secret: string): void;
    hasClientSecret(): boolean;
    hasUser(username: string): boolean;
    addUser(username: string, password: string, role: "admin"): Promise<number>;
  },
  settings: CredentialSettings,
  dataDir: string,
  log: Logger,
): Promise<{ generatedFile?: string }> {
  const generated: Record<string, string> = {};
  if (settings.clientSecret) auth.setClientSecret(settings.clientSecret);
  else if (!auth.hasClientSecret()) {
    const secret = randomSecret(24);
    auth.setClientSecret(secret);
    generated.clientId = settings.clientId;
    generated.clientSecret = secret;
    generated.basicAuthorization = `Basic ${Buffer.from(`${settings.clientId}:${secret}`).toString("base64")}`;
  }
  if (!auth.hasUser(settings.adminUser)) {
    const password = settings.adminPassword ?? randomSecret(18);
    // the first user is an admin: existing set-ups keep every right (README "Roles")
    await auth.addUser(settings.adminUser, password, "admin");
    if (!settings.adminPassword) {
      generated.adminUser = settings.adminUser;
      generated.adminPassword = password;
    }
  }
  if (Object.keys(generated).length === 0) return {};
  const file = join(dataDir, CREDENTIALS_FILE);
  writeFileSync(file, `${JSON.stringify({ ...generated, createdAt: new Date().toISOString() }, null, 2)}\n`, {
    mode: 0o600,
  });
  chmodSync(file, 0o600); // the mode above is subject to umask only on creation
  log.warn(
    { file, generated: Object.keys(generated) },
    "generated credentials written (owner-readable only)",
  );
  return { generatedFile: file };
}
