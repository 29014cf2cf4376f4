/**
 * The package's changelog (packaging/changelog, scripts/debian/changelog.mjs; docs/operations.md#licences):
 * Debian's format, its newest entry package.json's version with a Debian revision, installed as
 * changelog.Debian.gz.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
// @ts-expect-error: plain ESM module without types
import * as changelog from "../../../scripts/debian/changelog.mjs";

const ROOT = join(import.meta.dirname, "../../..");
const { installedChangelog, parseChangelog, readChangelog, upstreamOf } = changelog as {
  installedChangelog(
    root: string,
    version: string,
    now?: Date,
  ): { name: string; bytes: Buffer; maintainer: string };
  parseChangelog(text: string): Array<{ package: string; version: string; maintainer: string; date: string }>;
  readChangelog(root: string): {
    text: string;
    entries: Array<{ package: string; version: string; maintainer: string }>;
  };
  upstreamOf(version: string): string;
};
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

describe("the package's changelog", () => {
  it("its newest entry is package.json's version with a Debian revision, for package pps-edge", () => {
    const { entries } = readChangelog(ROOT);
    const newest = entries[0];
    expect(newest?.package).toBe("pps-edge");
    expect(newest?.version).toMatch(/^[0-9][A-Za-z0-9.+~]*-[0-9A-Za-z.+~]+$/);
    expect(upstreamOf(newest?.version ?? "")).toBe(pkg.version);
    // a real mail host (lintian's bogus-mail-host refuses localhost)
    expect(newest?.maintainer).toMatch(/^[^<]+ <[^@>]+@[^@>]+\.[a-z]+>$/);
    expect(newest?.maintainer).not.toMatch(/localhost/);
  });

  it("is installed as changelog.Debian.gz as written; another version gets an entry of its own on top", () => {
    const { entries, text } = readChangelog(ROOT);
    const version = entries[0]?.version as string;
    const same = installedChangelog(ROOT, version);
    expect(same.name).toBe("changelog.Debian.gz");
    expect(gunzipSync(same.bytes).toString()).toBe(text);
    const other = installedChangelog(ROOT, `${version}+next`, new Date("2026-11-28T12:00:00Z"));
    const out = parseChangelog(gunzipSync(other.bytes).toString());
    expect(out.map((e) => e.version)).toEqual([`${version}+next`, ...entries.map((e) => e.version)]);
    expect(out[0]?.date).toBe("Sat, 28 Nov 2026 12:00:00 +0000");
    expect(installedChangelog(ROOT, "9.9.9").name).toBe("changelog.gz");
  });

  it("refuses an entry without its maintainer line", () => {
    expect(() => parseChangelog("pps-edge (1.0-1) unstable; urgency=medium\n\n  * x\n")).toThrow(
      / -- name <mail>/,
    );
  });
});
