import { readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import { AppError } from "../domain/errors.js";
import { applyEnv } from "./config.env.js";
import { type Config, configSchema } from "./config.schema.js";

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
    const errors = result.error.issues.map((i) => {
      const path = i.path.join(".");
      const keys = i.code === "unrecognized_keys" ? ` (${i.keys.join(", ")})` : "";
      return { path: path || "(root)", message: `${i.message}${keys}` };
    });
    throw new AppError(
      "validation_failed",
      `invalid configuration: ${errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`,
      errors,
    );
  }
  return result.data;
}

/** Reads the YAML file (if any) and the environment. */
export function loadConfig(path: string | undefined, env: Record<string, string | undefined>): Config {
  let raw: unknown = {};
  if (path) {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (e) {
      throw new AppError("validation_failed", `config file ${path} cannot be read: ${(e as Error).message}`, [
        { path, message: "cannot be read" },
      ]);
    }
    try {
      raw = parseYaml(text);
    } catch (e) {
      throw new AppError(
        "validation_failed",
        `config file ${path}: not valid YAML: ${(e as Error).message}`,
        [{ path, message: "not valid YAML" }],
      );
    }
  }
  return parseConfig(raw, env);
}
