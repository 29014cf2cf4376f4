import { z } from "zod";
import { identifier } from "./identifier.js";

/**
 * What central (or an admin) may tell a seat (docs/mqtt.md#telling-a-seat): pause and resume it, set
 * the station's mode, send its operator a message, sign its operator out. The same bodies over MQTT
 * (plus `transaction`) and HTTP; unknown members are refused, naming the field, as typos usually are.
 */
const seat = identifier(32);
/** A reason or a message is shown to the operator: text without control characters, at most 500. */
const shown = (max: number) => identifier(max);

export const pauseSeatSchema = z.strictObject({
  seat,
  reason: shown(255),
  /** who paused it, as central names them (shown on the screen); the caller's user when absent */
  by: identifier(128).optional(),
});
export type PauseSeatInput = z.infer<typeof pauseSeatSchema>;

export const resumeSeatSchema = z.strictObject({ seat, by: identifier(128).optional() });
export type ResumeSeatInput = z.infer<typeof resumeSeatSchema>;

/** The path's seat comes from the route (HTTP): the body holds the rest. */
export const pauseBodySchema = pauseSeatSchema.omit({ seat: true });
export const resumeBodySchema = resumeSeatSchema.omit({ seat: true });

export const seatMessageSchema = z.strictObject({
  seat,
  text: shown(500),
  by: identifier(128).optional(),
});
export type SeatMessageInput = z.infer<typeof seatMessageSchema>;

export const signOutSchema = z.strictObject({ seat });
