#!/bin/sh
# /usr/bin/pps-edge on an installed station (docs/operations.md#install-on-a-station): the agent's command with the
# station's config file and data folder, so `sudo -u pps-edge pps-edge status` sees what the service sees.
# A variable already set (the unit's Environment=, /etc/pps-edge/pps-edge.env, the caller) is kept.
# /opt/pps-edge/current is the release that runs (docs/operations.md#self-healing-upgrade): the package's
# own, or the one kept from before an upgrade that did not become ready.
# `exec`: Node itself becomes the service's main process, which Type=notify needs (sd_notify datagrams are
# accepted from the main PID), and it receives systemd's SIGTERM directly.
# The V8 flags are those of `npm start` (docs/architecture.md#performance-targets): a small young
# generation and a heap cap keep the agent's memory bounded while it drains a large outbox.
: "${PPS_EDGE_CONFIG:=/etc/pps-edge/pps-edge.yaml}"
: "${PPS_EDGE_DATA_DIR:=/var/lib/pps-edge}"
export PPS_EDGE_CONFIG PPS_EDGE_DATA_DIR
exec /usr/bin/node --max-semi-space-size=4 --max-old-space-size=256 /opt/pps-edge/current/dist/app/main.js "$@"
