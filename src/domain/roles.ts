import { AppError } from "./errors.js";

/**
 * Roles of API users (docs/security.md). `integration` is the central system: the interface's
 * endpoints and the station calls central makes. `operator` is a person at the station: the operator
 * actions and the operator screen. `admin` may do everything both may, and manages the station.
 */
export const ROLES = ["integration", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

export function isRole(text: string): text is Role {
  return (ROLES as readonly string[]).includes(text);
}

/** Whether `role` may call what `allowed` lists: an admin may call everything. */
export function roleAllows(allowed: readonly Role[], role: Role): boolean {
  return role === "admin" || allowed.includes(role);
}

/** Every role that may call something, admin last (listed or not): `["integration", "admin"]`. */
export function rolesWithAdmin(allowed: readonly Role[]): Role[] {
  return [...allowed.filter((r) => r !== "admin"), "admin"];
}

/** The same as a reader says it: "integration, admin". */
export function rolesText(allowed: readonly Role[]): string {
  return rolesWithAdmin(allowed).join(", ");
}

/** The 403 of a caller whose role may not do something (docs/security.md#roles). */
export function forbiddenError(role: Role, allowed: readonly Role[]): AppError {
  return new AppError("forbidden", `the role ${role} may not do this (roles: ${rolesText(allowed)})`, [
    { path: "Authorization", message: `needs one of: ${rolesText(allowed)}` },
  ]);
}
