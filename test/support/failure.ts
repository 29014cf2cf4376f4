import { isAppError } from "../../src/domain/errors.js";

/** The message and field paths of the AppError `fn` throws; fails the test if it throws none. */
export function failure(fn: () => unknown): { message: string; paths: string[] } {
  try {
    fn();
  } catch (e) {
    if (isAppError(e)) return { message: e.message, paths: e.errors.map((x) => x.path) };
    throw e;
  }
  throw new Error("expected a failure");
}
