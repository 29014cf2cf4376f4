# Shared by the maintainer scripts: scripts/package.mjs puts this text in place of each script's marker line.
# DPKG_ROOT is set when dpkg installs into another root (`dpkg --root`, an image being assembled): then
# nothing is done to the running system (no service, no udev); users and folders are made by the
# offline modes of systemd-sysusers and systemd-tmpfiles where they can be, else at the first boot.
ROOT="${DPKG_ROOT:-}"
UNIT=pps-edge.service
DATA=/var/lib/pps-edge
ENVFILE=/etc/pps-edge/pps-edge.env

# systemctl start/stop only on a live system booted with systemd (not in a chroot or a scratch root)
systemd_running() { [ -z "$ROOT" ] && [ -d /run/systemd/system ]; }

stop_unit() {
	if systemd_running; then
		if command -v deb-systemd-invoke >/dev/null 2>&1; then
			deb-systemd-invoke stop "$UNIT" >/dev/null || true
		else
			systemctl stop "$UNIT" >/dev/null 2>&1 || true
		fi
	fi
}

# The agent's command as the service user, with the service's environment file (it may move dataDir).
as_agent() {
	(
		if [ -r "$ENVFILE" ]; then set -a; . "$ENVFILE"; set +a; fi
		exec runuser -u pps-edge -- /usr/bin/pps-edge "$@"
	)
}
