/**
 * A start failure a maintainer can cause and fix: a port in use, a config or station file at fault, a
 * data folder held by another agent. Raised by the part that knows (config loading, the foundation,
 * the HTTP server); printed by the command line as one line, never with a stack (the stack goes to
 * the log at debug level). The message is that line without the program's prefix:
 * `<problem> (<key>): <fix>`.
 */
export class StartError extends Error {
  /** What went wrong, on one line. */
  readonly problem: string;
  /** The config key (or variable, or option) to look at. */
  readonly key: string;
  /** What to do about it. */
  readonly fix: string;

  constructor(problem: string, key: string, fix: string, options?: { cause?: unknown }) {
    const p = oneLine(problem);
    super(`${p} (${key}): ${oneLine(fix)}`, options);
    this.name = "StartError";
    this.problem = p;
    this.key = key;
    this.fix = oneLine(fix);
  }
}

export function isStartError(e: unknown): e is StartError {
  return e instanceof StartError;
}

/** The first non-empty line, trimmed: library messages (YAML, SQLite) may quote a snippet below it. */
export function oneLine(text: string): string {
  const first = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  return first.trim().replace(/:$/, "");
}

/** The line the command line prints for a failure: the one formatter of start and command errors. */
export function failureLine(e: unknown, starting: boolean): string {
  const what = isStartError(e) ? e.message : oneLine(e instanceof Error ? e.message : String(e));
  return `pps-edge: ${starting ? "cannot start: " : ""}${what}`;
}
