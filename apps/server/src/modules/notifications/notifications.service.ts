import type {
  NotificationListQuery,
  NotificationPage,
  NotificationsReadAllResult,
} from '@telemedicina/shared/notifications';
import type { Database } from '../../db/client.js';
import { appError } from '../../lib/app-error.js';
import { type AppServices, type ServiceContext, requireActor } from '../context.js';
import { isUuid } from '../../lib/uuid.js';
import { presentNotification } from './notifications.presenter.js';
import {
  countUnread,
  insertNotifications,
  listNotificationsOf,
  markAllNotificationsRead,
  markNotificationRead,
  type NewNotification,
  type NotificationRow,
} from './notifications.repository.js';

/**
 * Stores notifications with `db` (possibly a transaction) and returns a
 * function that pushes them over Socket.IO: call it once the data is committed.
 */
export async function storeNotifications(
  services: Pick<AppServices, 'sockets'>,
  db: Database,
  rows: readonly NewNotification[],
): Promise<() => void> {
  const stored: NotificationRow[] = await insertNotifications(db, rows);
  return () => {
    for (const row of stored) {
      services.sockets.notifyUser(row.userId, presentNotification(row));
    }
  };
}

/** Stores and pushes at once (outside transactions). */
export async function notify(
  services: Pick<AppServices, 'sockets' | 'db'>,
  rows: readonly NewNotification[],
): Promise<void> {
  (await storeNotifications(services, services.db, rows))();
}

export async function listMyNotifications(
  ctx: ServiceContext,
  query: NotificationListQuery,
): Promise<NotificationPage> {
  const actor = requireActor(ctx);
  const { rows, total, unreadCount } = await listNotificationsOf(ctx.db, actor.userId, {
    page: query.page,
    pageSize: query.pageSize,
    unreadOnly: query.unreadOnly ?? false,
  });
  return {
    data: rows.map(presentNotification),
    page: query.page,
    pageSize: query.pageSize,
    total,
    unreadCount,
  };
}

/** Marks one's own notification read; another user's (or none) answers 404. */
export async function readNotification(ctx: ServiceContext, id: string) {
  const actor = requireActor(ctx);
  const row = isUuid(id) ? await markNotificationRead(ctx.db, actor.userId, id, ctx.now()) : null;
  if (row === null) {
    throw appError('NOT_FOUND', 'No such notification.');
  }
  return presentNotification(row);
}

export async function readAllNotifications(ctx: ServiceContext): Promise<NotificationsReadAllResult> {
  const actor = requireActor(ctx);
  const updated = await markAllNotificationsRead(ctx.db, actor.userId, ctx.now());
  return { updated, unreadCount: await countUnread(ctx.db, actor.userId) };
}
