// The package's copyright file, /usr/share/doc/pps-edge/copyright, in Debian's machine-readable format
// (DEP-5, https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/), made at package time from
// the package.json and licence file of each bundled npm package (docs/operations.md#licences). A licence
// is allowed when its text is kept in packaging/licenses/<SPDX id>: a package without a licence, or with
// one outside that list, stops the package build.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The SPDX ids whose texts packaging/licenses/ keeps: the allow-list. */
export function allowedLicences(root) {
  return readdirSync(join(root, "packaging", "licenses")).sort();
}

/** A package.json's licence as SPDX ids: `{ any: [[ids all required], …] }` (an OR of ANDs). */
export function licenceOf(pkg) {
  let expr = pkg.license;
  if (typeof expr === "object" && expr?.type) expr = expr.type;
  if (!expr && Array.isArray(pkg.licenses)) expr = pkg.licenses.map((l) => l.type ?? l).join(" OR ");
  if (typeof expr !== "string" || expr.trim() === "") return null;
  const text = expr.replace(/[()]/g, " ").trim();
  return text.split(/\s+OR\s+/i).map((alt) => alt.split(/\s+AND\s+/i).map((id) => id.trim()));
}

/**
 * The licence a bundled package is distributed under here: the first alternative of its expression whose
 * licences are all allowed (a distributor of an "A OR B" package chooses one). Throws, naming the
 * package, when it has none or none is allowed.
 */
export function chooseLicence(name, pkg, allowed) {
  const alternatives = licenceOf(pkg);
  if (!alternatives) throw new Error(`${name}: its package.json names no licence`);
  const ok = alternatives.find((ids) => ids.every((id) => allowed.includes(id)));
  if (!ok) {
    throw new Error(
      `${name}: licence ${JSON.stringify(pkg.license ?? pkg.licenses)} is not in packaging/licenses/ (allowed: ${allowed.join(", ")})`,
    );
  }
  return { ids: ok, offered: alternatives.length > 1 ? alternatives.map((a) => a.join(" AND ")) : null };
}

/** The copyright lines of a package's licence file, else its author, else its authors in general. */
function holders(dir, pkg) {
  const lines = [];
  for (const f of readdirSync(dir).filter((f) => /^(LICEN[CS]E|COPYING|NOTICE)/i.test(f))) {
    for (const line of readFileSync(join(dir, f), "utf8").split(/\r?\n/)) {
      const l = line.replace(/^[\s#*>-]+/, "").trim(); // a licence in Markdown: "# Copyright (c) …"
      // "Copyright (c) 2014 Name", "(c) 2014 Name", "© Name": a year or a name after it, not a licence's clause
      const notice = /^(Copyright\s*(\(c\)|©)?\s*(\d{4}|[A-Z])|\(c\)\s*\d{4}|©\s*(\d{4}|[A-Z]))/;
      if (notice.test(l) && !/^copyright\s+(notice|holder|owner|and|law|interest)/i.test(l)) {
        lines.push(l.replace(/^copyright\s*(\(c\)|©)?\s*/i, ""));
      }
    }
  }
  const unique = [...new Set(lines)].filter((l) => l !== "");
  if (unique.length > 0) return unique;
  const author = typeof pkg.author === "string" ? pkg.author : pkg.author?.name;
  return [author?.trim() || `the authors of ${pkg.name}`];
}

const field = (name, lines) =>
  `${name}: ${lines[0]}${lines
    .slice(1)
    .map((l) => `\n ${l}`)
    .join("")}`;
/** A licence text as a DEP-5 field body: each line indented, blank lines as " .". */
const body = (text) =>
  text
    .trimEnd()
    .split("\n")
    .map((l) => (l.trim() === "" ? " ." : ` ${l}`))
    .join("\n");

/**
 * The copyright file for the bundled packages (their folders under `nodeModules`, installed below
 * `prefix`, e.g. opt/pps-edge/node_modules). Returns the text and each package's name, version, licence.
 */
export function copyrightFile({ root, nodeModules, packageDirs, prefix }) {
  const allowed = allowedLicences(root);
  const app = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const used = new Set();
  const listed = [];
  const paragraphs = [
    [
      "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/",
      "Upstream-Name: pps-edge",
      "Comment: The pps-edge agent and the npm packages it bundles under",
      ` /${prefix}, each listed below with its licence. Made at package time`,
      " from each bundled package's package.json and licence file.",
    ].join("\n"),
    ["Files: *", "Copyright: pps-edge maintainers", "License: proprietary"].join("\n"),
  ];
  for (const dir of [...packageDirs].sort()) {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const path = relative(nodeModules, dir);
    const { ids, offered } = chooseLicence(`${pkg.name}@${pkg.version}`, pkg, allowed);
    for (const id of ids) used.add(id);
    listed.push({ name: pkg.name, version: pkg.version, license: ids.join(" and ") });
    const lines = [
      `Files: ${prefix}/${path}/*`,
      field("Copyright", holders(dir, pkg)),
      `License: ${ids.join(" and ")}`,
      `Comment: npm package ${pkg.name} ${pkg.version}${offered ? `, offered under ${offered.join(" or ")}` : ""}`,
    ];
    paragraphs.push(lines.join("\n"));
  }
  paragraphs.push(
    [
      "License: proprietary",
      ` ${app.name} is not free software (package.json: ${app.license}); all rights reserved by its`,
      " maintainers. The bundled npm packages keep their own licences, given above.",
    ].join("\n"),
  );
  for (const id of [...used].sort()) {
    const text = readFileSync(join(root, "packaging", "licenses", id), "utf8");
    paragraphs.push(`License: ${id}\n${body(text)}`);
  }
  return { text: `${paragraphs.join("\n\n")}\n`, packages: listed };
}

/** The bundled package folders the lockfile lists as production ones and the tree still holds. */
export function lockedProductionDirs(root, appDir) {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
  return Object.entries(lock.packages)
    .filter(([key, entry]) => key !== "" && !entry.dev)
    .map(([key]) => join(appDir, key))
    .filter((dir) => existsSync(join(dir, "package.json")));
}
