/**
 * The `/metrics` scrape credential (docs/security.md): one static token a Prometheus server sends as
 * `Authorization: Bearer <token>` (its `authorization.credentials` or `credentials_file`). It is not an
 * API user's token: a scraper needs no expiry, refresh or rights on the station's data, and an API
 * token would hand it those. Stored as its hash like the client secret; compared in constant time.
 */
import { timingSafeEqual } from "node:crypto";
import { type AuthDeps, sha256 } from "./auth-deps.js";

const SCRAPE_TOKEN_KEY = "metrics_token_hash";

/** The configured token wins over a generated one; either way only its hash is kept. */
export function setScrapeToken({ repo }: Pick<AuthDeps, "repo">, token: string): void {
  repo.setSetting(SCRAPE_TOKEN_KEY, sha256(token));
}

export function hasScrapeToken({ repo }: Pick<AuthDeps, "repo">): boolean {
  return repo.getSetting(SCRAPE_TOKEN_KEY) !== undefined;
}

/** Does this Authorization header carry the scrape token? */
export function isScrapeToken({ repo }: Pick<AuthDeps, "repo">, authorization: string | undefined): boolean {
  const given = /^Bearer +(\S+) *$/i.exec(authorization ?? "")?.[1];
  const stored = repo.getSetting(SCRAPE_TOKEN_KEY);
  if (given === undefined || stored === undefined) return false;
  const a = Buffer.from(sha256(given));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
