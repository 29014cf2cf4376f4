import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { anchorOf, anchorsOf, DOCUMENTS } from "../../support/readme.js";
import { commentsOf, REPOSITORY_FILES, sourceComments } from "../../support/source-comments.js";

/**
 * What the README, docs/ and the code's comments cite: links, `docs/<name>.md#anchor` and
 * `docs/<name>.md "Heading"` citations, repository paths and file names. Everything is read once, here.
 */
const root = new URL("../../../", import.meta.url);

const documents = DOCUMENTS;
const comments = sourceComments().map((c) => ({ where: `${c.file}:${c.line}`, text: prose(c.text) }));

/** A comment as a sentence: the `*` that open a block comment's lines dropped, lines joined. */
function prose(text: string): string {
  return text.replace(/^[ \t]*\*(?!\/)/gm, "").replace(/\s+/g, " ");
}

const headings = new Map(documents.map(([name, text]) => [name, anchorsOf(text)]));
const folders = new Set(
  REPOSITORY_FILES.flatMap((f) =>
    f
      .split("/")
      .slice(0, -1)
      .map((_, i, parts) => `${parts.slice(0, i + 1).join("/")}/`),
  ),
);
const files = new Set(REPOSITORY_FILES);
const fileNames = new Set(REPOSITORY_FILES.map((f) => f.slice(f.lastIndexOf("/") + 1)));
/** Where a path may start: a folder of the repository root, or of src/ (as docs/architecture.md's map writes them). */
const roots = new Set([...folders].filter((d) => d.split("/").length === 2).map((d) => d.slice(0, -1)));
const inSrc = new Set(
  [...folders].filter((d) => d.startsWith("src/") && d.split("/").length === 3).map((d) => d.slice(4, -1)),
);

/** A path that exists from the repository root or from src/. */
function exists(path: string): boolean {
  return [path, `src/${path}`].some((p) => files.has(p) || folders.has(p.endsWith("/") ? p : `${p}/`));
}

/** Placeholders such as `<driver>`, `…`, `*.ts` or `{a,b}` name no one file. */
const PLACEHOLDER = /[<>…*{}]/;
const PATH = /(?<![\w.@/:~$\\-])[\w.<>…*{}-]+(?:\/[\w.<>…*{}-]*)+/gu;
const CODE_FILE =
  /(?<![\w.@/:~$\\<>*…-])\w(?:[\w-]*\w)?(?:\.\w(?:[\w-]*\w)?)*\.(?:ts|mts|cts|mjs|cjs)(?!\.?[\w/-])/g;

/**
 * Repository paths in a text (`src/station/engine.ts`, `station/engine.ts`, `docs/`): words with a `/`
 * whose first folder is one of the root's or src/'s, sentence punctuation dropped. URLs, absolute and
 * `../` paths and placeholders are not paths of the repository.
 */
function paths(text: string): string[] {
  return [...text.matchAll(PATH)]
    .map((m) => m[0].replace(/[.,:;]+$/, ""))
    .filter((p) => !PLACEHOLDER.test(p))
    .filter((p) => {
      const first = p.slice(0, p.indexOf("/"));
      return roots.has(first) || inSrc.has(first);
    });
}

/** Bare code file names such as `picking.ts`: each is the name of some file of the repository. */
function codeFileNames(text: string): string[] {
  return [...text.matchAll(CODE_FILE)].map((m) => m[0]);
}

/** `docs/<name>.md#anchor` citations in a text whose anchor is no heading of that document. */
function brokenAnchors(text: string): string[] {
  return [...text.matchAll(/(?<![\w/.-])(docs\/[\w-]+\.md)#([\p{L}\p{N}_-]+)/gu)]
    .filter((m) => !headings.get(m[1] as string)?.has(m[2] as string))
    .map((m) => m[0]);
}

/** What a quoted name may cite in a document: a heading, or a bold label (`- **Pick+pack rule**: …`). */
const names = new Map(
  documents.map(([name, text]) => [
    name,
    new Set([
      ...anchorsOf(text),
      ...[...text.matchAll(/\*\*([^*]+)\*\*/g)].map((m) => anchorOf(m[1] as string)),
    ]),
  ]),
);

/** `docs/<name>.md "Heading"` (or `, "Heading"`) citations that name no heading or label of that document. */
function brokenHeadings(text: string): string[] {
  return [...text.matchAll(/(?<![\w/.-])(docs\/[\w-]+\.md),? "([^"]+)"/gu)]
    .filter((m) => !names.get(m[1] as string)?.has(anchorOf(m[2] as string)))
    .map((m) => m[0]);
}

/** Relative link targets, resolved against the document's folder, without their #anchor. */
function linkTargets(name: string, text: string): string[] {
  const base = name.includes("/") ? name.slice(0, name.lastIndexOf("/") + 1) : "";
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((t) => !/^(https?:|mailto:|#)/.test(t))
    .map((t) => new URL(base + (t.split("#")[0] as string), root).pathname);
}

/** The backticked words of a document's prose (code blocks left out). */
function backticked(text: string): string[] {
  return [...text.replace(/```[\s\S]*?```/g, "").matchAll(/`([^`\s]+)`/g)].map((m) => m[1] as string);
}

describe("what the README and docs/ cite", () => {
  it("links only to files in the repository", () => {
    const missing = documents.flatMap(([name, text]) =>
      linkTargets(name, text)
        .filter((p) => !existsSync(p))
        .map((p) => `${name} → ${p}`),
    );
    expect(missing).toEqual([]);
  });

  it("links only to headings that exist: #anchors within a document and file.md#anchor between them", () => {
    const anchors = new Map<string, Set<string>>();
    const anchorsIn = (path: string) => {
      if (!anchors.has(path)) anchors.set(path, anchorsOf(readFileSync(path, "utf8")));
      return anchors.get(path) as Set<string>;
    };
    const broken = documents.flatMap(([name, text]) => {
      const base = name.includes("/") ? name.slice(0, name.lastIndexOf("/") + 1) : "";
      const prose = text.replace(/```[\s\S]*?```/g, "");
      return [...prose.matchAll(/\]\(([^)\s]*#[^)\s]+)\)/g)]
        .map((m) => m[1] as string)
        .filter((t) => !/^(https?:|mailto:)/.test(t))
        .filter((t) => {
          const [file = "", anchor = ""] = t.split("#");
          const path = file === "" ? new URL(name, root).pathname : new URL(base + file, root).pathname;
          return !path.endsWith(".md") || !existsSync(path) || !anchorsIn(path).has(anchor);
        })
        .map((t) => `${name} → ${t}`);
    });
    expect(broken).toEqual([]);
  });

  it("names only repository paths and code files that exist, from the root or from src/", () => {
    const missing = documents.flatMap(([name, text]) =>
      backticked(text)
        .filter((word) => paths(word)[0] === word || codeFileNames(word)[0] === word)
        .filter((word) => (word.includes("/") ? !exists(word) : !fileNames.has(word)))
        .map((word) => `${name} → ${word}`),
    );
    expect(missing).toEqual([]);
  });

  it("cites no document a reader of the repository does not have", () => {
    const outside = documents.flatMap(([name, text]) =>
      [...text.matchAll(/DESIGN\.md|STYLE\.md|\.\.\/shared|reference\/[a-z-]+\.md/g)].map(
        (m) => `${name}: ${m[0]}`,
      ),
    );
    expect(outside).toEqual([]);
  });
});

describe("what the comments of src/, test/, scripts/, bench/ and the root's config files cite", () => {
  it("reads comments as the compiler does: not inside strings, templates or regular expressions", () => {
    const text = [
      'const a = "// no"; // one',
      "const r = /\\/\\*'/g; /* two */",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is code holding a template literal
      "const t = `${ { b: 1 }.b } // no ${'`'}`; // three",
      "// and the line after it",
      "x = a / b; // four",
      "return /[/]`/.test(s); /** five",
      " * on two lines */",
    ].join("\n");
    expect(commentsOf(text)).toEqual([
      { line: 1, text: " one" },
      { line: 2, text: " two " },
      { line: 3, text: " three\n and the line after it" },
      { line: 5, text: " four" },
      { line: 6, text: "* five\n * on two lines " },
    ]);
  });

  it("finds the citations, paths and file names the other checks read", () => {
    const text = prose(
      '* docs/mqtt.md#topics, docs/mqtt.md "Topics", src/station/engine.ts and\n * station/engine.ts,\n * engine.ts; not https://x/docs/a.md#b, ../db/x.ts, <driver>/x.ts, dist/app/main.js',
    );
    expect([brokenAnchors("docs/mqtt.md#no-such-heading"), brokenHeadings('docs/mqtt.md "No such"')]).toEqual(
      [["docs/mqtt.md#no-such-heading"], ['docs/mqtt.md "No such"']],
    );
    expect([brokenAnchors(text), brokenHeadings(text)]).toEqual([[], []]);
    expect(paths(text)).toEqual([
      "docs/mqtt.md",
      "docs/mqtt.md",
      "src/station/engine.ts",
      "station/engine.ts",
    ]);
    expect(codeFileNames(text)).toEqual(["engine.ts"]);
    expect(["station/engine.ts", "src/station/", "docs/nothing.md", "engine.ts"].map(exists)).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('cite docs/<name>.md#anchor and docs/<name>.md "Heading" only where that heading exists', () => {
    const broken = comments.flatMap(({ where, text }) =>
      [...brokenAnchors(text), ...brokenHeadings(text)].map((cite) => `${where} → ${cite}`),
    );
    expect(broken).toEqual([]);
  });

  it("name only repository paths and code files that exist, from the root or from src/", () => {
    const missing = comments.flatMap(({ where, text }) =>
      [...paths(text).filter((p) => !exists(p)), ...codeFileNames(text).filter((f) => !fileNames.has(f))].map(
        (p) => `${where} → ${p}`,
      ),
    );
    expect(missing).toEqual([]);
  });
});
