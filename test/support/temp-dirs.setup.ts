/**
 * Run before every test file (vitest.config.ts `setupFiles`): the folders `tempDir` made for the file
 * are removed once its tests and their own after-hooks are done, so a full run leaves nothing in /tmp.
 * Registered first, this hook runs after the file's own `afterAll` hooks (vitest runs them in reverse).
 */
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dirs.js";

afterAll(() => removeTempDirs());
