/**
 * A supervisor's seat credential (docs/security.md#supervisor-credentials): a badge whose barcode carries
 * a random secret (`SUP-<secret>`, never just a name), or a PIN typed on the screen's numpad. Either one
 * authorises ONE action at a seat that the supervisor's role may perform. Pure: the rules and the shape.
 */
import { z } from "zod";

/** The barcode of a supervisor's badge: this prefix and the secret `pps-edge user supervisor --badge` made. */
export const SUPERVISOR_BADGE_PREFIX = "SUP-";
export const MIN_PIN_DIGITS = 6;
export const MAX_PIN_DIGITS = 12;

/** Why a PIN may not be a supervisor's, or null: digits only, 6 to 12, not one digit repeated or a run. */
export function pinProblem(pin: string): string | null {
  if (!/^\d+$/.test(pin)) return "a PIN is digits only";
  if (pin.length < MIN_PIN_DIGITS || pin.length > MAX_PIN_DIGITS)
    return `a PIN has ${MIN_PIN_DIGITS} to ${MAX_PIN_DIGITS} digits`;
  if (/^(\d)\1+$/.test(pin)) return "a PIN is not one digit repeated";
  const run = (step: number) =>
    [...pin].every((d, i) => i === 0 || (Number(d) - Number(pin[i - 1]) + 10) % 10 === (step + 10) % 10);
  if (run(1) || run(-1)) return "a PIN is not a run of digits (123456)";
  return null;
}

/** The secret a badge's barcode carries, or null when the text is no supervisor's badge. */
export function badgeSecret(barcode: string): string | null {
  if (!barcode.startsWith(SUPERVISOR_BADGE_PREFIX)) return null;
  const secret = barcode.slice(SUPERVISOR_BADGE_PREFIX.length);
  return /^[A-Za-z0-9_-]{16,128}$/.test(secret) ? secret : null;
}

/** A scanned text as it may be shown or logged: a supervisor's badge never with its secret. */
export function shownScan(text: string): string {
  return text.startsWith(SUPERVISOR_BADGE_PREFIX) ? `${SUPERVISOR_BADGE_PREFIX}…` : text;
}

/** The credential a supervised screen action carries: the badge scanned, or the PIN typed. */
export const supervisorCredentialSchema = z
  .object({
    badge: z.string().min(1).max(256).optional(),
    pin: z.string().min(1).max(MAX_PIN_DIGITS).optional(),
  })
  .strict()
  .refine((c) => (c.badge === undefined) !== (c.pin === undefined), {
    message: "give the badge or the PIN, one of them",
  });
export type SupervisorCredential = z.output<typeof supervisorCredentialSchema>;
