/** Shared by the profile tests: where the shipped profiles live and how a refusal is caught. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type AppError, isAppError } from "../../../src/domain/errors.js";

export const profilesDir = fileURLToPath(new URL("../../../firmware-profiles/", import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: tests poke into arbitrary profile JSON
export type Json = any;
export type Mutation = (p: Record<string, Json>) => void;

export const readProfileJson = (name: string): Record<string, Json> =>
  JSON.parse(readFileSync(join(profilesDir, name), "utf8")) as Record<string, Json>;

/** Runs `fn`, expects it to throw an AppError, and returns it. */
export function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error("expected the profile to be refused");
}
