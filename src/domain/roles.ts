/**
 * Roles of API users (README "Security"). `integration` is the central system: the interface's
 * endpoints and the station calls central makes. `operator` is a person at the station: the operator
 * actions and the operator screen. `admin` may do everything both may, and manages the station.
 */
export const ROLES = ["integration", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];
