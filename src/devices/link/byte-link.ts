/**
 * The shape every byte stream to a device has (serial-link.ts, tcp-link.ts), so an adapter takes either,
 * and the reconnect delays used when a profile names none.
 */

/** A byte stream to one device or controller: serial-link.ts or tcp-link.ts. */
export interface ByteLink {
  readonly isOpen: boolean;
  /** Readable: the serial path or tcp://host:port. */
  readonly path: string;
  start(): void;
  stop(): Promise<void>;
  /** Resolves once the bytes are handed to the OS; rejects when the link is down. */
  write(bytes: Uint8Array): Promise<void>;
}

export interface LinkEvents {
  onData(chunk: Uint8Array): void;
  onOpen(): void;
  /** The link closed unexpectedly or could not be opened. */
  onDown(reason: string): void;
  onRetry?(): void;
}

/** Builds the adapter's link (serial or TCP, per the station file) around its event handlers. */
export type MakeLink = (events: LinkEvents) => ByteLink;

/** Reconnect delays when a profile names none: 0.5 s doubling to 10 s (hardware.md §1.5 [DERIVED]). */
export const DEFAULT_BACKOFF_MS = [500, 1000, 2000, 5000, 10_000];

export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
