// Types of sim-station.mjs for the TypeScript tests that run simulated stations (test/system/fleet/).
export interface SimStation {
  /** `<site>/<ppsId>` */
  station: string;
  /** Each connection made: when, to which node, and when its first notification was acknowledged. */
  connects: Array<{ at: number; url: string; firstAckAt?: number }>;
  connected(): boolean;
  url(): string;
  notify(type: string, data: unknown): void;
  /** The envelopes committed, seq 1 first. */
  committed(): readonly string[];
  lastSeq(): number;
  acked(): number;
  stop(): Promise<void>;
}
export function simStation(opts: {
  urls: string[];
  site: string;
  ppsId: string;
  protocolVersion?: 4 | 5;
  /** QoS of the `request/+` subscription, as the agent's `mqtt.requestQos` (default 0 here). */
  requestQos?: 0 | 1;
  reconnectMs?: number;
  /** As the agent's `mqtt.failbackAfterMs` (default 10 000; 0: never return to an earlier node). */
  failbackAfterMs?: number;
  version?: string;
}): SimStation;
