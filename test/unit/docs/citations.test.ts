import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { anchorsOf, DOCUMENTS } from "../../support/readme.js";

const root = new URL("../../../", import.meta.url);
const TOP_LEVEL = [
  "docs/",
  "src/",
  "systemd/",
  "firmware-profiles/",
  "drizzle/",
  "test/",
  "bench/",
  "scripts/",
  "examples/",
];

const documents = DOCUMENTS;

/** Relative link targets, resolved against the document's folder, without their #anchor. */
function linkTargets(name: string, text: string): string[] {
  const base = name.includes("/") ? name.slice(0, name.lastIndexOf("/") + 1) : "";
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1] as string)
    .filter((t) => !/^(https?:|mailto:|#)/.test(t))
    .map((t) => new URL(base + (t.split("#")[0] as string), root).pathname);
}

/** Backticked repository paths such as `systemd/pps-edge.service` (placeholders like <x> or … skipped). */
function pathMentions(text: string): string[] {
  return [...text.matchAll(/`([^`\s]+)`/g)]
    .map((m) => m[1] as string)
    .filter((p) => TOP_LEVEL.some((d) => p.startsWith(d)) && !/[<>…*{]/.test(p));
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

  it("names only repository paths that exist", () => {
    const missing = documents.flatMap(([name, text]) =>
      pathMentions(text)
        .filter((p) => !existsSync(new URL(p, root)))
        .map((p) => `${name} → ${p}`),
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
