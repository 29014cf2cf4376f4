/**
 * The contract between the connection (connection.ts and its connection-*.ts modules, the only files
 * that touch mqtt.js) and the parts that publish over it: the publisher, retained state and requests.
 * Types only.
 */
export interface PublishError {
  message: string;
  /** MQTT 5 PUBACK reason code (0x80 and above), when the broker refused with one. */
  reasonCode?: number;
}

/** One established connection. A new connection is a new Link; an old Link never comes back up. */
export interface Link {
  readonly session: number;
  /** The broker's Receive Maximum (MQTT 5 CONNACK), or 65535. */
  readonly receiveMaximum: number;
  /** The broker's Maximum Packet Size (MQTT 5 CONNACK), if it announced one. */
  readonly maximumPacketSize: number | undefined;
  readonly up: boolean;
  /** QoS 1; `done` runs on PUBACK, on refusal, or at once when the link is down (nothing is queued). */
  publish(topic: string, payload: string | Buffer, retain: boolean, done: (err?: PublishError) => void): void;
  publishAsync(topic: string, payload: string, retain: boolean): Promise<void>;
  /** Ends this connection; the agent reconnects with backoff and resends from the outbox. */
  drop(reason: string): void;
}

export interface ConnectionHandlers {
  /** After CONNACK, the subscriptions and ONLINE: retained state, then the outbox drain. */
  onUp(link: Link): Promise<void>;
  onDown(link: Link): void;
  /**
   * The connection is about to be closed on purpose, to return to an earlier node of the cluster:
   * resolves once the link may close (nothing more sent, the last PUBACKs in or given up on).
   */
  onLeaving?(link: Link): Promise<void>;
  onMessage(link: Link, topic: string, payload: Buffer): void;
  onReconnectScheduled?(delayMs: number): void;
}
