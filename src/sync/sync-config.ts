import type { ConnectionOptions } from "./connection-options.js";

/**
 * The part of the agent's configuration the MQTT sync reads. config/ validates it and sets the defaults;
 * the composition root hands the whole configuration in, and the compiler checks that it fits here.
 * Declared on this side so that sync/ does not depend on config/ (docs/architecture.md, "Layers").
 */
export interface SyncConfig {
  site: string;
  ppsId: string;
  mqtt: MqttSettings;
  outbox: { maxUndelivered: number };
  http: { bodyLimitBytes: number };
}

/** The `mqtt` section; the keys are documented in docs/configuration.md. */
export type MqttSettings = Pick<
  ConnectionOptions,
  | "protocolVersion"
  | "keepaliveSeconds"
  | "connectTimeoutMs"
  | "reconnectMinMs"
  | "reconnectMaxMs"
  | "reconnectFlappingMaxMs"
  | "username"
  | "password"
> & {
  /** `embedded`, `off`, or a broker URL. */
  url: string;
  embeddedHost: string;
  embeddedPort: number;
  /** Clients without credentials on the embedded broker (loopback only; config checks it). */
  embeddedAnonymous: boolean;
  /** The embedded broker's `mqtts://` listener; on only with a certificate and key (config checks both). */
  embeddedTls: {
    host?: string | undefined;
    port: number;
    certFile?: string | undefined;
    keyFile?: string | undefined;
  };
  clientId?: string | undefined;
  caFile?: string | undefined;
  certFile?: string | undefined;
  keyFile?: string | undefined;
  inflightWindow: number;
  maxMessageBytes: number;
  /** A final request's retained state is cleared this long after it became final. */
  retainTerminalSeconds: number;
  maxDeliveryAttempts: number;
  pruneDeliveredAfterHours: number;
  inboxRetentionHours: number;
  outboxWarnDepth: number;
  outboxWarnAgeSeconds: number;
};
