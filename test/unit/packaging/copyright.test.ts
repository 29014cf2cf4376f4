/**
 * The copyright file's licences (scripts/debian/copyright.mjs, docs/operations.md#licences): every npm
 * package the Debian package bundles names a licence, and one of the licences whose texts
 * packaging/licenses/ keeps (the allow-list); the file is DEP-5 with a paragraph per package and the
 * text of every licence it names.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module without types
import * as copyright from "../../../scripts/debian/copyright.mjs";
// @ts-expect-error: plain ESM module without types
import { runtimePackages } from "../../../scripts/debian/runtime-tree.mjs";

const ROOT = join(import.meta.dirname, "../../..");
const { allowedLicences, chooseLicence, copyrightFile, lockedProductionDirs } = copyright as {
  allowedLicences(root: string): string[];
  chooseLicence(name: string, pkg: object, allowed: string[]): { ids: string[]; offered: string[] | null };
  copyrightFile(o: { root: string; nodeModules: string; packageDirs: string[]; prefix: string }): {
    text: string;
    packages: Array<{ name: string; version: string; license: string }>;
  };
  lockedProductionDirs(root: string, appDir: string): string[];
};
const allowed = allowedLicences(ROOT);
/** The packages the .deb bundles: the lockfile's production ones the agent's dependencies reach. */
const bundled = (runtimePackages as (dir: string) => string[])(ROOT);

describe("the licences of the bundled npm packages", () => {
  it("the allow-list is the licence texts kept in packaging/licenses/", () => {
    expect(allowed).toEqual(expect.arrayContaining(["MIT", "ISC", "Apache-2.0", "BSD-3-Clause"]));
    expect(allowed).not.toContain("GPL-3.0-only");
  });

  it("every bundled package is a production package of the lockfile", () => {
    const production = new Set(lockedProductionDirs(ROOT, ROOT));
    expect(bundled.length).toBeGreaterThan(50);
    expect(bundled.filter((d) => !production.has(d))).toEqual([]);
  });

  it("every bundled package has an allowed licence (each one named when not)", () => {
    const refused: string[] = [];
    for (const dir of bundled) {
      try {
        copyrightFile({
          root: ROOT,
          nodeModules: join(ROOT, "node_modules"),
          packageDirs: [dir],
          prefix: "x",
        });
      } catch (e) {
        refused.push((e as Error).message);
      }
    }
    expect(refused).toEqual([]);
  });

  it("refuses a package without a licence, or with one outside the list, naming it", () => {
    expect(() => chooseLicence("nolicence@1.0.0", { name: "nolicence" }, allowed)).toThrow(
      /nolicence@1\.0\.0: its package\.json names no licence/,
    );
    expect(() => chooseLicence("copyleft@2.0.0", { license: "GPL-3.0-only" }, allowed)).toThrow(
      /copyleft@2\.0\.0: licence "GPL-3\.0-only" is not in packaging\/licenses\//,
    );
    expect(() => chooseLicence("seeit@1.0.0", { license: "SEE LICENSE IN LICENSE.txt" }, allowed)).toThrow(
      /seeit@1\.0\.0/,
    );
  });

  it("takes the first allowed alternative of an OR, all parts of an AND, and the old licenses array", () => {
    expect(chooseLicence("a", { license: "(GPL-3.0-only OR MIT)" }, allowed)).toEqual({
      ids: ["MIT"],
      offered: ["GPL-3.0-only", "MIT"],
    });
    expect(chooseLicence("b", { license: "(MIT AND Zlib)" }, allowed).ids).toEqual(["MIT", "Zlib"]);
    expect(() => chooseLicence("c", { license: "MIT AND GPL-2.0-only" }, allowed)).toThrow(/c: licence/);
    expect(chooseLicence("d", { licenses: [{ type: "BSD-3-Clause" }] }, allowed).ids).toEqual([
      "BSD-3-Clause",
    ]);
  });

  it("writes DEP-5: a Files paragraph per package with its copyright and licence, and each licence's text", () => {
    const { text, packages } = copyrightFile({
      root: ROOT,
      nodeModules: join(ROOT, "node_modules"),
      packageDirs: bundled,
      prefix: "opt/pps-edge/node_modules",
    });
    expect(
      text.startsWith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n"),
    ).toBe(true);
    expect(packages).toHaveLength(bundled.length);
    const paragraphs = text.trimEnd().split("\n\n");
    for (const p of packages) {
      const para = paragraphs.find((x) => x.includes(`Comment: npm package ${p.name} ${p.version}`));
      expect([p.name, para]).toEqual([
        p.name,
        expect.stringMatching(/^Files: opt\/pps-edge\/node_modules\/\S+\/\*\nCopyright: \S/),
      ]);
      expect(para).toContain(`License: ${p.license}`);
    }
    const named = new Set(packages.flatMap((p) => p.license.split(" and ")));
    for (const id of named) expect([id, text.includes(`\n\nLicense: ${id}\n `)]).toEqual([id, true]);
    // DEP-5 continuation lines start with a space; no line is empty inside a paragraph
    const bad = paragraphs.flatMap((p) =>
      p.split("\n").filter((l) => l === "" || !(/^[A-Z][\w-]*: /.test(l) || l.startsWith(" "))),
    );
    expect(bad).toEqual([]);
  });
});
