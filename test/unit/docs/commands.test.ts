import { readdirSync, readFileSync } from "node:fs";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { EXIT } from "../../../src/app/cli/context.js";
import { createProgram } from "../../../src/app/cli/program.js";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "../../../src/domain/password-policy.js";
import { runCli } from "../../support/cli.js";
import { codes, DOCUMENTS, doc, section, shellBlocks, shellLines, tableRows } from "../../support/readme.js";

const CLI = doc("docs/cli.md");

const PACKAGE = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
  scripts: Record<string, string>;
};

/** Every command path of the command line, e.g. "user add", from commander's own tree. */
function commandPaths(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands
    .filter((c) => c.name() !== "help")
    .flatMap((c) => [[...prefix, c.name()], ...commandPaths(c, [...prefix, c.name()])]);
}

const program = createProgram({
  io: { stdin: process.stdin, out: () => {}, err: () => {}, env: {} },
  code: 0,
});
const known = commandPaths(program).map((p) => p.join(" "));

/** The subcommand words of a command line: "npx pps-edge user add alice" → ["user", "add"]. */
function subcommand(words: string[]): string[] {
  const path: string[] = [];
  for (const w of words) {
    if (!known.includes([...path, w].join(" "))) break;
    path.push(w);
  }
  return path;
}

/** Words after the subcommand that its declared arguments do not take (a misspelt subcommand lands here). */
function unparsed(words: string[]): string[] {
  const path = subcommand(words);
  let cmd: Command = program;
  for (const name of path) cmd = cmd.commands.find((c) => c.name() === name) as Command;
  const args = cmd.registeredArguments;
  const rest: string[] = [];
  // the command's own options (`--role ROLE`) are parsed, with the value they take
  for (let i = path.length; i < words.length; i++) {
    const option = cmd.options.find((o) => o.long === words[i] || o.short === words[i]);
    if (option?.required) i++;
    else if (!option) rest.push(words[i] as string);
  }
  return args.some((a) => a.variadic) ? [] : rest.slice(args.length);
}

/** The pps-edge invocations in the shell blocks of the README and docs/ (`npx pps-edge`, `node dist/app/main.js`, `sim`). */
function invocations(): Array<{ line: string; words: string[] }> {
  const out: Array<{ line: string; words: string[] }> = [];
  for (const block of shellBlocks()) {
    for (const line of shellLines(block.text)) {
      for (const m of line.matchAll(/(?:npx pps-edge|node dist\/main\.js|^sim)\s+([^|;&#)"]*)/g)) {
        const words = (m[1] as string).trim().split(/\s+/);
        out.push({ line, words: line.startsWith("sim ") ? ["sim", ...words] : words });
      }
    }
  }
  return out;
}

describe("docs/cli.md and the shell blocks: the command line", () => {
  const rows = tableRows(CLI.split("| exit code |")[0] as string).map(([cmd = ""]) =>
    (codes(cmd)[0] ?? "").split(" ").slice(1),
  );

  it("lists every command of the command line", () => {
    const listed = new Set(rows.map((words) => subcommand(words).join(" ")));
    const leaves = known.filter((p) => !known.some((q) => q.startsWith(`${p} `)) || p === "user");
    expect(leaves.filter((p) => p !== "user" && !listed.has(p))).toEqual([]);
  });

  it("has commands that answer --help with their usage (and do nothing else)", async () => {
    for (const words of rows) {
      const path = words[0] === "help" ? [] : subcommand(words);
      expect([words.join(" "), words[0] === "help" ? [] : unparsed(words)]).toEqual([words.join(" "), []]);
      const r = await runCli([...path, "--help"], {});
      expect([path.join(" "), r.code]).toEqual([path.join(" "), EXIT.ok]);
      expect(r.out).toContain(`Usage: pps-edge ${path.join(" ")}`.trim());
    }
  });

  it("states the exit codes the code uses", () => {
    const table = CLI.split("| exit code |")[1] as string;
    const stated = tableRows(table).map(([code = ""]) => Number(codes(code)[0]));
    expect(stated).toEqual([EXIT.ok, EXIT.failure, EXIT.usage, EXIT.refused]);
  });

  it("runs each pps-edge command of its shell blocks as a command the parser knows", async () => {
    const calls = invocations();
    expect(calls.length).toBeGreaterThan(10);
    for (const { line, words } of calls) {
      const path = subcommand(words);
      expect([line, path.length > 0, unparsed(words)]).toEqual([line, true, []]);
      const r = await runCli([...path, "--help"], {});
      expect([line, r.code]).toEqual([line, EXIT.ok]);
    }
  });

  it("names only npm scripts package.json has", () => {
    const used = shellBlocks().flatMap((b) =>
      [...b.text.matchAll(/npm (?:run (\S+)|(start|test))/g)].map((m) => (m[1] ?? m[2]) as string),
    );
    const inTables = DOCUMENTS.flatMap(([, text]) =>
      [...text.matchAll(/`npm run ([a-z:-]+)/g)].map((m) => m[1] as string),
    );
    expect([...used, ...inTables].filter((s) => !(s in PACKAGE.scripts))).toEqual([]);
  });

  it("states the password rule the code applies", () => {
    const rule = section("Password rule", doc("docs/security.md"));
    expect(rule).toContain(`at least ${MIN_PASSWORD_LENGTH} and at most ${MAX_PASSWORD_LENGTH} characters`);
    const stale = DOCUMENTS.flatMap(
      ([, text]) => text.match(/\d+\+ characters|at least \d+ characters/g) ?? [],
    );
    expect(stale).toEqual([]);
  });

  it("states the number of migrations drizzle/ ships, wherever a document gives one", () => {
    const shipped = readdirSync(new URL("../../../drizzle/", import.meta.url)).filter((f) =>
      f.endsWith(".sql"),
    );
    const stated = DOCUMENTS.flatMap(([path, text]) =>
      [...text.matchAll(/(\d+) migrations/g)].map((m) => [path, Number(m[1])]),
    );
    expect(stated.filter(([, n]) => n !== shipped.length)).toEqual([]);
  });
});
