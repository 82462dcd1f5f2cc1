import type { Notification, NotificationKind } from '@telemedicina/shared/notifications';
import type { NotificationRow } from './notifications.repository.js';

export function presentNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    data: row.data,
    readAt: row.readAt === null ? null : row.readAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}
