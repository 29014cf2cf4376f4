import { readFileSync } from "node:fs";

/** The README as a reader sees it, and helpers to cut it into the parts the tests check against the code. */
export const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The text from a `## Heading` to the next heading of the same level. */
export function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const end = README.indexOf("\n## ", start + 4);
  return README.slice(start, end < 0 ? undefined : end);
}

/** Rows of the Markdown tables in a text, as arrays of trimmed cells (header and rule rows dropped). */
export function tableRows(text: string): string[][] {
  const rows = text.split("\n").filter((l) => l.startsWith("|") && !/^\|[-| ]+\|$/.test(l));
  return rows.map((l) => splitRow(l)).filter((cells) => cells[0] !== "key" && cells[0] !== "request");
}

function splitRow(line: string): string[] {
  // A cell may hold `a \| b` (an escaped bar inside code); only bare bars separate cells.
  return line
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** The backticked words of a cell: "`POST …/x`, `…/y`" → ["POST …/x", "…/y"]. */
export function codes(cell: string): string[] {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

export interface ShellBlock {
  /** Line of the opening fence in README.md (1-based). */
  line: number;
  text: string;
  /** Marked `<!-- runnable: with the agent -->`: run as written against a running agent. */
  runnable: boolean;
}

/** Every ```sh block of the README, with its marker. */
export function shellBlocks(): ShellBlock[] {
  const out: ShellBlock[] = [];
  for (const m of README.matchAll(/(<!-- runnable: with the agent -->\n)?```sh\n([\s\S]*?)```/g)) {
    const line = README.slice(0, (m.index ?? 0) + (m[1]?.length ?? 0)).split("\n").length;
    out.push({ line, text: m[2] as string, runnable: m[1] !== undefined });
  }
  return out;
}

/** Shell lines with their continuation lines (ending in `\`) joined and comments kept. */
export function shellLines(text: string): string[] {
  return text.replace(/\\\n/g, " ").split("\n");
}
