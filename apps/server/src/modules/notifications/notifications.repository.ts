import type { NotificationKind } from '@telemedicina/shared/notifications';
import { and, count, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { notifications } from '../../db/schema.js';

export type NotificationRow = typeof notifications.$inferSelect;

export interface NewNotification {
  userId: string;
  kind: NotificationKind;
  data: Record<string, unknown>;
  createdAt: Date;
}

export async function insertNotifications(
  db: Database,
  rows: readonly NewNotification[],
): Promise<NotificationRow[]> {
  if (rows.length === 0) {
    return [];
  }
  return db
    .insert(notifications)
    .values([...rows])
    .returning();
}

/** One user's notifications, newest first, with the total and the unread count. */
export async function listNotificationsOf(
  db: Database,
  userId: string,
  options: { page: number; pageSize: number; unreadOnly: boolean },
): Promise<{ rows: NotificationRow[]; total: number; unreadCount: number }> {
  const own = eq(notifications.userId, userId);
  const unread = and(own, isNull(notifications.readAt));
  const where: SQL | undefined = options.unreadOnly ? unread : own;
  const rows = await db
    .select()
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize);
  const [total] = await db.select({ value: count() }).from(notifications).where(where);
  return { rows, total: total?.value ?? 0, unreadCount: await countUnread(db, userId) };
}

export async function countUnread(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ value: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.value ?? 0;
}

/** Marks one of the user's notifications read (kept as first read); null when not theirs. */
export async function markNotificationRead(
  db: Database,
  userId: string,
  id: string,
  now: Date,
): Promise<NotificationRow | null> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId), isNull(notifications.readAt)));
  const [row] = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)));
  return row ?? null;
}

export async function markAllNotificationsRead(db: Database, userId: string, now: Date): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

/**
 * Whether the user already has a notification of this kind whose data holds these values (a request
 * sent once per subject, e.g. one consent version for one appointment).
 */
export async function hasNotificationWith(
  db: Database,
  userId: string,
  kind: NotificationKind,
  data: Record<string, string>,
): Promise<boolean> {
  const [row] = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.kind, kind),
        sql`${notifications.data} @> ${JSON.stringify(data)}::jsonb`,
      ),
    )
    .limit(1);
  return row !== undefined;
}
