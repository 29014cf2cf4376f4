import type { AuthRepo } from "../../db/auth.repo.js";
import type { Role } from "../../domain/roles.js";
import type { AccessEvents, Revoked, RevokeReason } from "./access-events.js";

/**
 * Connections that outlive the request that authenticated them: a screen's event stream, an MQTT client
 * on the embedded broker. Removing a user, giving them a new password or another role (also by the
 * command line, another process) ends theirs at the next `sweep` (app/revocation.part.ts runs it when
 * the database changed; the auth service after its own changes).
 */
export interface LiveSession {
  userId: number;
  username: string;
  /** The role it was authenticated with. */
  role: Role;
  what: Exclude<Revoked, "tokens">;
  /** Still valid beyond its user (a bearer stream: the token not revoked). */
  valid?: () => boolean;
  end(): void;
}

export function createLiveSessions(repo: Pick<AuthRepo, "findUserById">, access: AccessEvents) {
  const live = new Map<LiveSession, number>();

  function reasonToEnd(s: LiveSession, seenUpdatedAt: number): RevokeReason | null {
    const user = repo.findUserById(s.userId);
    if (!user) return "user_removed";
    if (user.role !== s.role) return "role_changed";
    if (user.updatedAt !== seenUpdatedAt) return "password_reset";
    if (s.valid && !s.valid()) return "token_revoked";
    return null;
  }

  return {
    /** Watches `s` until the returned function is called (the connection closed by itself). */
    track(s: LiveSession): () => void {
      live.set(s, repo.findUserById(s.userId)?.updatedAt ?? -1);
      return () => live.delete(s);
    },
    /** Ends every session whose user is gone or changed; how many it ended. */
    sweep(): number {
      let ended = 0;
      for (const [s, seen] of [...live]) {
        const reason = reasonToEnd(s, seen);
        if (reason === null) continue;
        live.delete(s);
        access.onRevoked({ username: s.username, reason, what: s.what });
        s.end();
        ended++;
      }
      return ended;
    },
    size: () => live.size,
  };
}

export type LiveSessions = ReturnType<typeof createLiveSessions>;
