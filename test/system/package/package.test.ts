/**
 * The Debian package (docs/operations.md#install-on-a-station), built once for all suites: its contents
 * (contents.suite.ts), what Debian asks of it (debian.suite.ts: lintian, copyright, changelog), an
 * install, upgrade and rollback in a scratch root (install.suite.ts), and an upgrade to a release that
 * never becomes ready, which the upgrade guard undoes (rollback.suite.ts).
 * Skipped, saying why, only where dpkg-deb or dpkg is absent.
 */
import { afterAll, beforeAll, describe } from "vitest";
// @ts-expect-error: plain ESM module without types
import { readChangelog } from "../../../scripts/debian/changelog.mjs";
import { deadline } from "../../support/deadline.js";
import { contentsSuite } from "./contents.suite.js";
import { debianSuite } from "./debian.suite.js";
import { installSuite, measured } from "./install.suite.js";
import { rollbackMeasured, rollbackSuite } from "./rollback.suite.js";
import { buildDebs, type Debs, missingDpkg, ROOT } from "./support/debs.js";

const missing = missingDpkg();
/** The package's own version: the newest entry of packaging/changelog (package.json's, with a revision). */
const VERSION = (readChangelog(ROOT) as { entries: Array<{ version: string }> }).entries[0]
  ?.version as string;
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
    const { upgradeToReadyAgainMs, guardMs, timeoutS } = rollbackMeasured;
    if (upgradeToReadyAgainMs !== undefined && guardMs !== undefined) {
      const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      console.log(
        `package: faulty upgrade back to ready on the previous release in ${s(upgradeToReadyAgainMs)} from dpkg -i (guard ${s(guardMs)}, timeout ${timeoutS} s)`,
      );
    }
  });
  const built = () => debs as Debs;
  contentsSuite(built);
  debianSuite(built);
  installSuite(built);
  rollbackSuite(built);
});
