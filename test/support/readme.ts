import { readdirSync, readFileSync } from "node:fs";

/**
 * The README and the documents of docs/ as a reader sees them, and helpers to cut them into the parts
 * the tests check against the code.
 */
const root = new URL("../../", import.meta.url);

/** A document by its path from the repository root, e.g. `docs/cli.md`. */
export function doc(path: string): string {
  return readFileSync(new URL(path, root), "utf8");
}

export const README = doc("README.md");

/** README.md, then every docs/*.md in name order: the order their runnable blocks run in. */
export const DOCUMENTS: Array<[string, string]> = [
  ["README.md", README],
  ...readdirSync(new URL("docs/", root))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f): [string, string] => [`docs/${f}`, doc(`docs/${f}`)]),
];

/** The text from a `## Heading` of a document to the next heading of that level. */
export function section(heading: string, text: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const end = text.indexOf("\n## ", start + 4);
  return text.slice(start, end < 0 ? undefined : end);
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
  /** The document it is in, and the line of its opening fence there (1-based). */
  file: string;
  line: number;
  text: string;
  /** Marked `<!-- runnable: with the agent -->`: run as written against a running agent. */
  runnable: boolean;
}

/** Every ```sh block of the README and docs/, in the order of DOCUMENTS, with its marker. */
export function shellBlocks(): ShellBlock[] {
  const out: ShellBlock[] = [];
  for (const [file, text] of DOCUMENTS) {
    for (const m of text.matchAll(/(<!-- runnable: with the agent -->\n)?```sh\n([\s\S]*?)```/g)) {
      const line = text.slice(0, (m.index ?? 0) + (m[1]?.length ?? 0)).split("\n").length;
      out.push({ file, line, text: m[2] as string, runnable: m[1] !== undefined });
    }
  }
  return out;
}

/** Shell lines with their continuation lines (ending in `\`) joined and comments kept. */
export function shellLines(text: string): string[] {
  return text.replace(/\\\n/g, " ").split("\n");
}

/** GitHub's anchor of a heading: lowercase, punctuation dropped, spaces to `-`. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a document's headings (outside code blocks), with GitHub's `-1`, `-2` for repeats. */
export function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fence = !fence;
    const m = !fence && /^#{1,6} (.+)$/.exec(line);
    if (!m) continue;
    const base = anchorOf(m[1] as string);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}
