import { describe, expect, it } from "vitest";
import {
  badgeSecret,
  pinProblem,
  supervisorCredentialSchema,
} from "../../../src/domain/supervisor-credential.js";

// docs/security.md#supervisor-credentials
describe("a supervisor's credential", () => {
  it("a PIN is 6 to 12 digits, not one digit repeated, not a run", () => {
    expect(pinProblem("482915")).toBeNull();
    expect(pinProblem("730261948203")).toBeNull();
    expect(pinProblem("48291")).toMatch(/6 to 12/);
    expect(pinProblem("4829150000000")).toMatch(/6 to 12/);
    expect(pinProblem("48a915")).toMatch(/digits only/);
    expect(pinProblem("777777")).toMatch(/repeated/);
    expect(pinProblem("123456")).toMatch(/run/);
    expect(pinProblem("987654")).toMatch(/run/);
    expect(pinProblem("890123")).toMatch(/run/);
  });

  it("a badge carries a secret after SUP-, never just a name", () => {
    expect(badgeSecret("SUP-abcdefghijklmnopqrstuvwxyz012345")).toBe("abcdefghijklmnopqrstuvwxyz012345");
    expect(badgeSecret("SUP-sam")).toBeNull();
    expect(badgeSecret("BADGE-abcdefghijklmnopqrstuvwxyz")).toBeNull();
    expect(badgeSecret("SUP-abc def ghi jkl mno pqr")).toBeNull();
  });

  it("the credential a tap carries is the badge or the PIN, one of them", () => {
    expect(supervisorCredentialSchema.safeParse({ pin: "482915" }).success).toBe(true);
    expect(supervisorCredentialSchema.safeParse({ badge: "SUP-x" }).success).toBe(true);
    expect(supervisorCredentialSchema.safeParse({}).success).toBe(false);
    expect(supervisorCredentialSchema.safeParse({ pin: "482915", badge: "SUP-x" }).success).toBe(false);
    expect(supervisorCredentialSchema.safeParse({ user: "sam" }).success).toBe(false);
  });
});
