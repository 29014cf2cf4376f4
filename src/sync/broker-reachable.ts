/**
 * Whether a broker address accepts TCP connections: how a station on a later node of its list learns
 * that an earlier one is back (docs/mqtt.md#a-clustered-broker). A TCP connect, closed at once: no MQTT
 * CONNECT, so no client id is taken and no Will or session is touched on that node, and no credentials
 * are sent to it. Whether the node then takes the station's MQTT connection is found out by the return
 * itself (a refused return makes the next one wait longer: domain/backoff.ts, `failbackHoldMs`).
 */
import { connect } from "node:net";

const DEFAULT_PORTS: Record<string, number> = { "mqtt:": 1883, "mqtts:": 8883 };

/** Host and port of an `mqtt://` or `mqtts://` address (IPv6 without its brackets). */
export function addressOf(url: string): { host: string; port: number } {
  const u = new URL(url);
  const host = u.hostname.replace(/^\[(.*)\]$/, "$1");
  return { host, port: u.port ? Number(u.port) : (DEFAULT_PORTS[u.protocol] ?? 1883) };
}

/**
 * Resolves true once a TCP connection to `url` is made, false on refusal, error or after `timeoutMs`;
 * never rejects: an address it cannot use (the configuration refuses one with a port out of range) is
 * one that does not answer.
 */
export function brokerReachable(url: string, timeoutMs: number): Promise<boolean> {
  let address: { host: string; port: number };
  try {
    address = addressOf(url);
  } catch {
    return Promise.resolve(false);
  }
  return new Promise((done) => {
    const socket = connect(address);
    const finish = (ok: boolean) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(timeoutMs, () => finish(false));
    socket.once("connect", () => finish(true));
    socket.once("error", () => finish(false));
  });
}
