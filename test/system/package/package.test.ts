/**
 * The Debian package (docs/operations.md#install-on-a-station), built once for both suites: its contents
 * (contents.suite.ts) and an install, upgrade and rollback in a scratch root (install.suite.ts).
 * Skipped, saying why, only where dpkg-deb or dpkg is absent.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe } from "vitest";
import { deadline } from "../../support/deadline.js";
import { contentsSuite } from "./contents.suite.js";
import { installSuite, measured } from "./install.suite.js";
import { buildDebs, type Debs, missingDpkg, ROOT } from "./support/debs.js";

const missing = missingDpkg();
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
let debs: Debs | undefined;

describe.skipIf(missing)(`the Debian package${missing ? ` (skipped: ${missing})` : ""}`, () => {
  beforeAll(async () => {
    debs = await buildDebs(VERSION);
  }, deadline(900_000));
  afterAll(() => {
    debs?.remove();
    const { installMs, installToReadyMs } = measured;
    if (installMs !== undefined && installToReadyMs !== undefined) {
      const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      console.log(`package: install to ready in ${s(installToReadyMs)} (dpkg -i ${s(installMs)})`);
    }
  });
  const built = () => debs as Debs;
  contentsSuite(built);
  installSuite(built);
});
