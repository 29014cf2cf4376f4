import { readdirSync, readFileSync } from "node:fs";

/**
 * The comments of the repository's code (src/, test/, scripts/, bench/ and the configuration files at
 * the root), read once, so tests can check what they cite against the docs and the tree.
 */
const root = new URL("../../", import.meta.url);

/** The folders whose code is read, besides the code files at the root (the tools' configuration). */
const FOLDERS = ["src/", "test/", "scripts/", "bench/"];
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;
/** What is not the repository's own (.gitignore): dependencies, builds, run data, results. */
const IGNORED = new Set([".git", "node_modules", "dist", "data", "coverage", "test-results"]);

export interface Comment {
  /** The file, from the repository root, and the line the comment starts on (1-based). */
  file: string;
  line: number;
  text: string;
}

/** Every file of the repository, by its path from the root, in name order. */
export const REPOSITORY_FILES: string[] = (() => {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(new URL(dir || ".", root), { withFileTypes: true })) {
      if (IGNORED.has(entry.name)) continue;
      if (entry.isDirectory()) walk(`${dir}${entry.name}/`);
      else if (entry.isFile()) out.push(`${dir}${entry.name}`);
    }
  };
  walk("");
  return out.sort();
})();

/** The code files whose comments are read: under the folders, and at the root. */
export function codeFiles(): string[] {
  return REPOSITORY_FILES.filter(
    (f) => CODE.test(f) && (!f.includes("/") || FOLDERS.some((d) => f.startsWith(d))),
  );
}

/** The comments of every code file. */
export function sourceComments(): Comment[] {
  return codeFiles().flatMap((file) =>
    commentsOf(readFileSync(new URL(file, root), "utf8")).map((c) => ({ file, ...c })),
  );
}

/** Words after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set(
  "return typeof case do else in of new delete void throw instanceof yield await".split(" "),
);

/**
 * The line and block comments of a JavaScript or TypeScript text, skipping strings, template literals
 * (with their `${…}` parts read as code) and regular expression literals. A `/` starts a regular
 * expression where an operand is expected: after an operator, an opening bracket, a comma, or a
 * keyword such as `return`; which is how formatted code reads. The scan jumps from one of these
 * characters to the next (a regular expression search), which keeps the whole tree under a second.
 */
export function commentsOf(text: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  // One entry per open `${`: the depth of braces inside it, so its `}` resumes the template.
  const templates: number[] = [];
  const next = /[/"'`{}]/g;
  // Comments come in text order, so each line number counts on from the last one.
  let counted = 0;
  let lineEnd = -1; // where the last line comment ended
  let line = 1;
  const lineAt = (at: number) => {
    for (; counted < at; counted++) if (text.charCodeAt(counted) === 10) line++;
    return line;
  };
  /** The end of a quoted string that starts at `at`. */
  const quoted = (at: number, quote: string) => {
    let j = at + 1;
    while (j < text.length && text[j] !== quote && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
    return j + 1;
  };
  /** From inside a template, the end of it, or the end of the `${` that opens a part of code. */
  const template = (at: number) => {
    let j = at;
    while (j < text.length) {
      const c = text[j];
      if (c === "\\") j += 2;
      else if (c === "`") return j + 1;
      else if (c === "$" && text[j + 1] === "{") {
        templates.push(0);
        return j + 2;
      } else j++;
    }
    return j;
  };
  const regexEnd = (at: number) => {
    let inClass = false;
    let j = at + 1;
    for (; j < text.length && text[j] !== "\n"; j++) {
      const c = text[j];
      if (c === "\\") j++;
      else if (c === "[") inClass = true;
      else if (c === "]") inClass = false;
      else if (c === "/" && !inClass) break;
    }
    return j + 1;
  };
  const startsRegex = (at: number) => {
    let j = at - 1;
    while (j >= 0 && /\s/.test(text[j] as string)) j--;
    if (j < 0) return true;
    const before = text[j] as string;
    if (!/[\w$]/.test(before)) return /[(,=:[!&|?{};+\-*%<>~^]/.test(before);
    let k = j;
    while (k > 0 && /[\w$]/.test(text[k - 1] as string)) k--;
    return BEFORE_REGEX.has(text.slice(k, j + 1));
  };
  for (let m = next.exec(text); m; m = next.exec(text)) {
    const i = m.index;
    const c = m[0];
    const after = text[i + 1];
    let end = i + 1;
    if (c === "/" && after === "/") {
      end = text.indexOf("\n", i);
      if (end < 0) end = text.length;
      const last = out.at(-1);
      // A run of line comments on consecutive lines is one comment, as a reader takes it.
      if (last && lineEnd >= 0 && /^\n[ \t]*$/.test(text.slice(lineEnd, i))) {
        last.text += `\n${text.slice(i + 2, end)}`;
      } else out.push({ line: lineAt(i), text: text.slice(i + 2, end) });
      lineEnd = end;
    } else if (c === "/" && after === "*") {
      const close = text.indexOf("*/", i + 2);
      out.push({ line: lineAt(i), text: text.slice(i + 2, close < 0 ? undefined : close) });
      end = close < 0 ? text.length : close + 2;
    } else if (c === "/") {
      if (startsRegex(i)) end = regexEnd(i);
    } else if (c === '"' || c === "'") {
      end = quoted(i, c);
    } else if (c === "`") {
      end = template(i + 1);
    } else {
      const depth = templates.at(-1);
      if (depth === undefined) continue;
      if (c === "}" && depth === 0) {
        templates.pop();
        end = template(i + 1);
      } else templates[templates.length - 1] = depth + (c === "{" ? 1 : -1);
    }
    next.lastIndex = end;
  }
  return out;
}
