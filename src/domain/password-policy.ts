/**
 * The one rule for every password and secret a person chooses: the config's `adminPassword` and
 * `clientSecret`, and the passwords given to `pps-edge user add` and `user reset-password`. Length is
 * what makes a guess against the stored scrypt hash expensive (a passphrase of a few words passes);
 * the agent's own generated secrets are longer (services/auth/credentials.ts). Pure.
 */
import { longerThan, shorterThan } from "./text.js";

/** Fewest characters a chosen password or client secret may have. */
export const MIN_PASSWORD_LENGTH = 12;
/** Most characters: a bound on the work a single sign-in can ask of scrypt. */
export const MAX_PASSWORD_LENGTH = 256;

/** Why a password breaks the rule, or null when it keeps it. */
export function passwordProblem(password: string): string | null {
  if (shorterThan(password, MIN_PASSWORD_LENGTH)) return `at least ${MIN_PASSWORD_LENGTH} characters`;
  if (longerThan(password, MAX_PASSWORD_LENGTH)) return `at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}
