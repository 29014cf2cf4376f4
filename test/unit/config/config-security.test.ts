/**
 * The config of HTTPS, the embedded broker's TLS listener and the `/metrics` credential: a certificate
 * goes with its key, the variables reach the nested keys, and anonymous broker clients stay on loopback
 * whichever listener they would use.
 */
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../src/config/config.load.js";
import { failure } from "../../support/failure.js";

describe("config: TLS and the scrape credential", () => {
  it("reads the certificate keys from the file and from PPS_EDGE_ variables", () => {
    const c = parseConfig(
      { http: { tls: { certFile: "/etc/pps-edge/cert.pem", keyFile: "/etc/pps-edge/key.pem" } } },
      {
        PPS_EDGE_MQTT_EMBEDDED_TLS_CERT_FILE: "/b/cert.pem",
        PPS_EDGE_MQTT_EMBEDDED_TLS_KEY_FILE: "/b/key.pem",
        PPS_EDGE_MQTT_EMBEDDED_TLS_PORT: "9883",
        PPS_EDGE_METRICS_TOKEN: "a-scrape-token-of-length",
        PPS_EDGE_METRICS_OPEN: "true",
      },
    );
    expect(c.http.tls).toEqual({ certFile: "/etc/pps-edge/cert.pem", keyFile: "/etc/pps-edge/key.pem" });
    expect(c.mqtt.embeddedTls).toEqual({ port: 9883, certFile: "/b/cert.pem", keyFile: "/b/key.pem" });
    expect(c.metrics).toEqual({ token: "a-scrape-token-of-length", open: true });
  });

  it("refuses a certificate without its key, and a key without its certificate", () => {
    expect(failure(() => parseConfig({ http: { tls: { certFile: "c.pem" } } })).paths).toEqual([
      "http.tls.keyFile",
    ]);
    const broker = failure(() => parseConfig({ mqtt: { embeddedTls: { keyFile: "k.pem" } } }));
    expect(broker.paths).toEqual(["mqtt.embeddedTls.keyFile"]);
    expect(broker.message).toMatch(/set both or neither/);
  });

  it("refuses a scrape token shorter than the password rule", () => {
    expect(failure(() => parseConfig({ metrics: { token: "short" } })).paths).toEqual(["metrics.token"]);
  });

  it("allows anonymous broker clients only when the TLS listener is on loopback too", () => {
    const tls = { certFile: "c.pem", keyFile: "k.pem" };
    expect(parseConfig({ mqtt: { embeddedAnonymous: true, embeddedTls: tls } }).mqtt.embeddedAnonymous).toBe(
      true,
    );
    const lan = { embeddedAnonymous: true, embeddedTls: { ...tls, host: "0.0.0.0" } };
    expect(failure(() => parseConfig({ mqtt: lan })).paths).toEqual(["mqtt.embeddedAnonymous"]);
    // a TLS host without a certificate opens no listener
    const unused = { embeddedAnonymous: true, embeddedTls: { host: "0.0.0.0" } };
    expect(parseConfig({ mqtt: unused }).mqtt.embeddedAnonymous).toBe(true);
  });
});
