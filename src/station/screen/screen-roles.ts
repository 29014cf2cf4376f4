/**
 * Who acts on the operator screen (docs/roles.md#screen-action--role): the station box's own display and
 * the taps that need a supervisor there. Pure: read from the one table (domain/permissions.ts) through
 * each tap's operation (actions.ts `SCREEN_ACTION_OPERATION`).
 */
import { mayPerform } from "../../domain/permissions.js";
import type { Role } from "../../domain/roles.js";
import { SCREEN_ACTION_OPERATION, type ScreenAction } from "./actions.js";

/**
 * The role a seat's key session acts with: the station box's own display has no user, and is a person
 * at the station, so it may do what an operator may and no more (docs/roles.md).
 */
export const DISPLAY_ROLE: Role = "operator";

export type TapType = ScreenAction["type"];

/**
 * The taps `role` may not make by itself: the screen shows them as a supervisor's (a tap asks for a
 * supervisor's badge or PIN, which authorises that one tap), never as a button that answers 403.
 */
export function supervisedTaps(role: Role = DISPLAY_ROLE): TapType[] {
  return (Object.keys(SCREEN_ACTION_OPERATION) as TapType[]).filter(
    (type) => !mayPerform(role, SCREEN_ACTION_OPERATION[type]),
  );
}
