# Shared by the maintainer scripts: scripts/package.mjs puts this text in place of each script's marker line.
# DPKG_ROOT is set when dpkg installs into another root (`dpkg --root`, an image being assembled): then
# nothing is done to the running system (no service, no udev); users and folders are made by the
# offline modes of systemd-sysusers and systemd-tmpfiles where they can be, else at the first boot.
ROOT="${DPKG_ROOT:-}"
UNIT=pps-edge.service
DATA=/var/lib/pps-edge
ENVFILE=/etc/pps-edge/pps-edge.env

# The service is started and stopped only on a live system booted with systemd (not in a chroot or a
# scratch root), through deb-systemd-invoke (which honours policy-rc.d), as debhelper's scripts do.
systemd_running() { [ -z "$ROOT" ] && [ -d /run/systemd/system ]; }

stop_unit() {
	if systemd_running; then
		deb-systemd-invoke stop "$UNIT" >/dev/null || true
	fi
}

# Exports the service's environment file as systemd reads it (EnvironmentFile=, systemd.exec(5)):
# KEY=VALUE lines, comments, one pair of quotes around a value removed. A value is text, never code: a
# passphrase with spaces is one value, and "$(...)" or ";cmd" in a secret is run by nobody, least of all
# by root in a maintainer script.
load_env_file() {
	[ -r "$ENVFILE" ] || return 0
	while IFS= read -r line || [ -n "$line" ]; do
		case "$line" in '' | '#'* | ';'*) continue ;; esac
		key=$(printf '%s' "${line%%=*}" | tr -d ' \t')
		value=${line#*=}
		case "$line" in *=*) ;; *) continue ;; esac
		case "$key" in '' | [0-9]* | *[!A-Za-z0-9_]*) continue ;; esac
		case "$value" in
		\"*\")
			value=${value#\"}
			value=${value%\"}
			;;
		\'*\')
			value=${value#\'}
			value=${value%\'}
			;;
		esac
		export "$key=$value"
	done <"$ENVFILE"
}

# The agent's command as the service user, with the service's environment file (it may move dataDir).
as_agent() {
	(
		load_env_file
		exec runuser -u pps-edge -- /usr/bin/pps-edge "$@"
	)
}
