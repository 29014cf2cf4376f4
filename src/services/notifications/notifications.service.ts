import type { OutboxRepo } from "../../db/outbox.repo.js";
import { type ReplayPage, type ReplayQuery, replayPage } from "./notification-replay.js";

/** One notification as GET /station/notifications lists it: the envelope exactly as committed. */
export interface NotificationEntry {
  seq: number;
  delivered: boolean;
  /** The envelope as JSON text, byte for byte what is (or was) published. */
  envelope: string;
}

/**
 * Notifications in sequence order, for clients that poll and for tests (the outbox's read door; the
 * outbox itself is written only through the unit of work). `lastSeq` is the newest sequence number,
 * so a client knows whether it is behind.
 */
export function notificationPage(
  outbox: Pick<OutboxRepo, "after" | "lastSeq">,
  after: number,
  limit: number,
): { notifications: NotificationEntry[]; lastSeq: number } {
  const notifications = outbox
    .after(after, limit)
    .map((r) => ({ seq: r.seq, delivered: r.deliveredAt !== null, envelope: r.envelope }));
  return { notifications, lastSeq: outbox.lastSeq() };
}

export function createNotificationsService(outbox: Pick<OutboxRepo, "after" | "lastSeq" | "firstSeq">) {
  return {
    page: (after: number, limit: number) => notificationPage(outbox, after, limit),
    /** `request/replay_notifications`: a page that fits one MQTT answer (notification-replay.ts). */
    replay: (q: ReplayQuery): ReplayPage => replayPage(outbox, q),
  };
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
