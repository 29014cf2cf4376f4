import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { AppError, type FieldError, isAppError } from "../domain/errors.js";
import { StartError } from "../start-error.js";
import { applyEnv, envName } from "./config.env.js";
import { type Config, configSchema } from "./config.schema.js";

/** One entry per key at fault; an unknown key is named by its full path, so it can be found and removed. */
function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((i) => {
    const at = i.path.map(String);
    if (i.code === "unrecognized_keys") {
      return i.keys.map((k) => ({ path: [...at, k].join("."), message: "not a configuration key" }));
    }
    return [{ path: at.join(".") || "(root)", message: i.message }];
  });
}

/**
 * Validates a raw config (from YAML, after env overrides). Throws an AppError whose message names
 * each key at fault and why, so a bad start says exactly what to fix.
 */
export function parseConfig(raw: unknown, env: Record<string, string | undefined> = {}): Config {
  if (raw !== null && raw !== undefined && (typeof raw !== "object" || Array.isArray(raw))) {
    throw new AppError("validation_failed", "config: the file must hold a mapping of keys", [
      { path: "", message: "expected a mapping" },
    ]);
  }
  const merged = applyEnv((raw ?? {}) as Record<string, unknown>, env, configSchema);
  const result = configSchema.safeParse(merged);
  if (!result.success) {
    const errors = fieldErrors(result.error.issues);
    throw new AppError(
      "validation_failed",
      `invalid configuration: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
      errors,
    );
  }
  return result.data;
}

/** Reads and parses the YAML file: the raw mapping, before the environment; none without a path. */
export function readConfigFile(path: string | undefined): unknown {
  if (!path) return {};
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new AppError("validation_failed", `config file ${path} cannot be read: ${(e as Error).message}`, [
      { path, message: "cannot be read" },
    ]);
  }
  try {
    return parseYaml(text);
  } catch (e) {
    throw new AppError("validation_failed", `config file ${path}: not valid YAML: ${(e as Error).message}`, [
      { path, message: "not valid YAML" },
    ]);
  }
}

/** Reads the YAML file (if any) and the environment. */
export function loadConfig(path: string | undefined, env: Record<string, string | undefined>): Config {
  return parseConfig(readConfigFile(path), env);
}

/** Where the config comes from: the file (and how it was named) and the environment. */
export interface ConfigSource {
  file?: { path: string; namedBy: string } | undefined;
  env: Record<string, string | undefined>;
}

function hasKey(raw: unknown, path: readonly string[]): boolean {
  let node = raw;
  for (const seg of path) {
    if (typeof node !== "object" || node === null || !(seg in node)) return false;
    node = (node as Record<string, unknown>)[seg];
  }
  return true;
}

/** Where a key's value comes from, for a message: its variable, the file, or the default. */
export function originOf(key: string, raw: unknown, src: ConfigSource): string {
  const path = key.split(".");
  if (src.env[envName(path)] !== undefined) return envName(path);
  if (src.file && hasKey(raw, path)) return src.file.path;
  return "the default";
}

/** A config that cannot be read or holds a value at fault, as the one line that names the key and the fix. */
function startError(e: AppError, raw: unknown, src: ConfigSource): StartError {
  const file = src.file;
  const first = e.errors[0];
  if (file && first?.path === file.path) {
    const fix =
      first.message === "cannot be read" ? "give the path of a readable YAML file" : "correct the YAML";
    return new StartError(e.message, file.namedBy, fix, { cause: e });
  }
  if (!first || first.path === "") {
    return new StartError(e.message, file?.namedBy ?? "--config", "write the file as `key: value` lines", {
      cause: e,
    });
  }
  const key = first.path;
  if (key.startsWith("PPS_EDGE_")) {
    return new StartError(e.message, key, "remove the variable or correct its name", { cause: e });
  }
  const where = originOf(key, raw, src);
  const fix =
    first.message === "not a configuration key"
      ? `remove ${key} from ${where}, or correct its name`
      : `correct ${key} in ${where === "the default" ? `the config file or ${envName(key.split("."))}` : where}`;
  return new StartError(e.message, key, fix, { cause: e });
}

/** The config for a start or a command; a file or value at fault is a StartError naming the key. */
export function loadConfigOrExplain(src: ConfigSource): { config: Config; raw: unknown } {
  let raw: unknown = {};
  try {
    raw = readConfigFile(src.file?.path);
    return { config: parseConfig(raw, src.env), raw };
  } catch (e) {
    throw isAppError(e) ? startError(e, raw, src) : e;
  }
}
