/**
 * Pure validation of firmware profiles: text in, typed profile out, or one AppError that names the file,
 * the JSON path and the reason for every problem found. No file system here (see load-profiles.ts).
 */
import type { z } from "zod";
import { AppError, type FieldError } from "../../domain/errors.js";
import { type FirmwareProfile, firmwareProfileSchema } from "./firmware-profile.schema.js";

/** Dotted path as the rest of the agent reports field errors (`sensor.channels.0.point`). */
function dotted(path: ReadonlyArray<PropertyKey>): string {
  return path.length === 0 ? "(root)" : path.map(String).join(".");
}

function zodFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => {
    // A misspelt key is reported on its parent; name the key itself so the path points at it.
    if (issue.code === "unrecognized_keys") {
      return { path: dotted([...issue.path, issue.keys[0] ?? ""]), message: "unknown key" };
    }
    return { path: dotted(issue.path), message: issue.message };
  });
}

/** The error thrown for a refused profile: code `validation_failed`, `details.file`, one entry per problem. */
export function profileError(file: string, errors: FieldError[]): AppError {
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  const summary = first === undefined ? "invalid" : `${first.path}: ${first.message}`;
  return new AppError("validation_failed", `firmware profile ${file}: ${summary}${more}`, errors, { file });
}

/** Validates already-parsed JSON. `file` only labels errors. */
export function validateProfile(file: string, json: unknown): FirmwareProfile {
  const result = firmwareProfileSchema.safeParse(json);
  if (!result.success) throw profileError(file, zodFieldErrors(result.error));
  return result.data;
}

/** Parses and validates the text of one profile file. */
export function parseProfileText(file: string, text: string): FirmwareProfile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw profileError(file, [{ path: "(root)", message: `not valid JSON: ${(e as Error).message}` }]);
  }
  return validateProfile(file, json);
}

/**
 * Indexes profiles by id. The station file names a profile by id and the id is its file name
 * (`profile: serial-scanner-cr` -> `firmware-profiles/serial-scanner-cr.json`, docs/architecture.md#the-station-model), so the
 * two must agree and ids must be unique.
 */
export function indexProfiles(
  entries: ReadonlyArray<{ file: string; profile: FirmwareProfile }>,
): Map<string, FirmwareProfile> {
  const byId = new Map<string, FirmwareProfile>();
  const fileOf = new Map<string, string>();
  for (const { file, profile } of entries) {
    const base = file.split(/[\\/]/).pop() ?? file;
    if (base !== `${profile.profileId}.json`) {
      throw profileError(file, [{ path: "profileId", message: `must match the file name (${base})` }]);
    }
    const other = fileOf.get(profile.profileId);
    if (other !== undefined) {
      throw profileError(file, [{ path: "profileId", message: `is already used by ${other}` }]);
    }
    fileOf.set(profile.profileId, file);
    byId.set(profile.profileId, profile);
  }
  return byId;
}
