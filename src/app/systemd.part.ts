/**
 * What the agent tells systemd (the unit is `Type=notify`, systemd/pps-edge.service): `READY=1` once
 * every other part has started (the database is open and migrated, the devices are up, HTTP listens:
 * this part starts last); `WATCHDOG=1` from the event loop every half `WatchdogSec=`, so a blocked loop
 * misses its pings and systemd restarts the agent; a `STATUS=` line with the outbox depth, the broker
 * connection and the devices that are down, whenever it changes (looked at every few seconds);
 * `STOPPING=1` as the stop begins (this part stops first). Without `$NOTIFY_SOCKET` it does nothing.
 */

import type { Sync } from "../sync/sync.js";
import type { Foundation } from "./foundation.js";
import type { Part } from "./lifecycle.js";
import { type NotifyEnv, systemdNotifier, watchdogIntervalMs } from "./systemd-notify.js";

/** How often the status is looked at: a change shows in `systemctl status` within this time. */
export const STATUS_EVERY_MS = 5000;
/** How long the stop waits for `STOPPING=1` to be handed over. */
const STOPPING_WAIT_MS = 2000;

/** What the STATUS= line says; systemd shows it beside the unit, so it is short and says what is down. */
export interface SystemdStatus {
  /** Notifications committed and not yet acknowledged by the broker. */
  undelivered: number;
  /** Notifications moved aside to the dead letters. */
  dead: number;
  broker: "connected" | "disconnected" | "off";
  devices: Array<{ id: string; connected: boolean }>;
}

/** The `STATUS=` text: what a maintainer reads first in `systemctl status pps-edge`. */
export function statusLine(s: SystemdStatus): string {
  const down = s.devices.filter((d) => !d.connected).map((d) => d.id);
  const devices = `devices ${s.devices.length - down.length} of ${s.devices.length} up`;
  return [
    `outbox ${s.undelivered} waiting, ${s.dead} dead`,
    s.broker === "off" ? "broker off" : `broker ${s.broker}`,
    down.length ? `${devices}, down: ${down.join(" ")}` : devices,
  ].join("; ");
}

function systemdStatus(f: Foundation, sync: Sync): SystemdStatus {
  const { outbox } = f.svc.repos;
  return {
    undelivered: outbox.undeliveredCount(),
    dead: outbox.deadCount(),
    broker: f.config.mqtt.url === "off" ? "off" : sync.status().connected ? "connected" : "disconnected",
    devices: f.hub.health().map((d) => ({ id: d.id, connected: d.connected })),
  };
}

export function systemdPart(f: Foundation, sync: Sync, env: NotifyEnv = process.env): Part {
  const notifier = systemdNotifier(env, { log: f.log });
  const timers: NodeJS.Timeout[] = [];
  let last = "";
  const status = () => {
    try {
      return statusLine(systemdStatus(f, sync));
    } catch (err) {
      // a database that cannot be read right now: /readyz and the log say why; keep the pings going
      f.log.debug({ err }, "systemd status unavailable");
      return last;
    }
  };
  return {
    name: "systemd notify",
    start() {
      if (!notifier) return;
      last = status();
      notifier.notify("READY=1", `STATUS=${last}`);
      const every = watchdogIntervalMs(env);
      if (every !== undefined) timers.push(setInterval(() => notifier.notify("WATCHDOG=1"), every));
      timers.push(
        setInterval(() => {
          const now = status();
          if (now !== last) notifier.notify(`STATUS=${now}`);
          last = now;
        }, STATUS_EVERY_MS),
      );
      for (const t of timers) t.unref();
      f.log.info({ watchdogMs: every }, "systemd: told ready");
    },
    async stop() {
      for (const t of timers.splice(0)) clearInterval(t);
      if (!notifier) return;
      notifier.notify("STOPPING=1", "STATUS=stopping");
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, STOPPING_WAIT_MS);
      });
      await Promise.race([notifier.settled(), waited]);
      clearTimeout(timer);
    },
  };
}
