/**
 * Probing the embedded broker's door and ACL from outside, over real sockets: what CONNACK a connect
 * gets and which filters a SUBSCRIBE is granted.
 */
import mqtt, { type IClientOptions, type MqttClient } from "mqtt";

/**
 * The CONNACK return code a connect attempt gets (0: accepted), and the client when accepted; a TLS
 * failure gives its error code or message instead.
 */
export function tryConnect(
  url: string,
  opts: IClientOptions,
): Promise<{ code: number | string; client?: MqttClient }> {
  const client = mqtt.connect(url, { protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000, ...opts });
  return new Promise((ok) => {
    client.once("connect", () => ok({ code: 0, client }));
    client.once("error", (err) => {
      client.end(true);
      const e = err as Error & { code?: number | string };
      ok({ code: e.code ?? e.message });
    });
  });
}

/** Granted QoS per filter (128: refused; mqtt.js then rejects with the SUBACK packet). */
export async function granted(client: MqttClient, filters: string[]): Promise<number[]> {
  try {
    return (await client.subscribeAsync(filters, { qos: 1 })).map((s) => s.qos);
  } catch (e) {
    const suback = (e as { packet?: { granted?: number[] } }).packet;
    if (!suback?.granted) throw e;
    return suback.granted;
  }
}
