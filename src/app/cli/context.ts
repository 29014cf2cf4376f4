/**
 * What every command of the command line shares: the process's streams and environment (passed in, so
 * tests drive `main` in-process), the exit code the command leaves, and the config it reads.
 */
import type { Command } from "commander";
import { type ConfigSource, loadConfigOrExplain, originOf } from "../../config/config.load.js";
import type { Config } from "../../config/config.schema.js";

export interface Io {
  /** Standard input: the password when piped; the terminal when `isTTY`. */
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  out: (s: string) => void;
  err: (s: string) => void;
  env: Record<string, string | undefined>;
  /** Where questions to a person go (standard error); absent: process.stderr. */
  prompt?: NodeJS.WritableStream;
}

/** Exit codes (docs/cli.md): 0 done, 1 failed, 2 usage (bad arguments or input), 3 refused by the station engine (`sim`). */
export const EXIT = { ok: 0, failure: 1, usage: 2, refused: 3, keepRunning: -1 } as const;

/** A command's state while it runs: the streams and the exit code it leaves. */
export interface Cli {
  io: Io;
  code: number;
}

/** Bad arguments or input that commander cannot see (a short password): exit 2, nothing done. */
export class UsageError extends Error {}

export interface LoadedConfig {
  config: Config;
  /** Where a key's value came from: its variable, the file, or "the default". */
  origin(key: string): string;
}

/** The config named by --config (or PPS_EDGE_CONFIG) and the PPS_EDGE_ variables. */
export function loadCliConfig(cmd: Command, io: Io): LoadedConfig {
  const flag = cmd.optsWithGlobals<{ config?: string }>().config;
  const path = flag ?? io.env.PPS_EDGE_CONFIG;
  const src: ConfigSource = {
    file: path ? { path, namedBy: flag ? "--config" : "PPS_EDGE_CONFIG" } : undefined,
    env: io.env,
  };
  const { config, raw } = loadConfigOrExplain(src);
  return { config, origin: (key) => originOf(key, raw, src) };
}
