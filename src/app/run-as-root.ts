/**
 * The agent is never run as root (docs/security.md#files-and-the-package): the package runs it as the
 * system user `pps-edge` with only the device groups it needs, so a fault in it cannot reach the rest
 * of the box. Nothing refuses root (a maintainer may have a reason on a test bench), but the start
 * says so in the log.
 */

/** The warning to log at start for the process's user id (`process.getuid?.()`), or null when there is none. */
export function rootWarning(uid: number | undefined): string | null {
  return uid === 0
    ? "running as root: run the agent as the system user pps-edge (sudo -u pps-edge pps-edge run), as the package's unit does"
    : null;
}
