/**
 * What every stream parser and report decoder returns besides its frames. Bad input is reported as a
 * value, never thrown: a serial line or TCP stream carries noise, and one bad frame must not stop the
 * reader (docs/hardware.md#how-the-codecs-parse-streams: a parser drops bad frames instead of crashing).
 */
export interface ParseErrorEvent<R extends string = string> {
  type: "parse-error";
  /** Stable, machine-readable cause; tests and metrics key on this, never on text. */
  reason: R;
  /** The bytes that were dropped (or the offending report), for logs and fixtures. */
  bytes: Uint8Array;
}

export function parseError<R extends string>(reason: R, bytes: Uint8Array): ParseErrorEvent<R> {
  return { type: "parse-error", reason, bytes };
}
