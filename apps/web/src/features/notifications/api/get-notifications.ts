import type { Notification, NotificationPage } from '@telemedicina/shared/notifications';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** How many of the newest notifications the bell shows. */
export const bellPageSize = 20;

/** `GET /notifications` → the newest ones (own only) with the unread count; quiet (no spinner, no alert). */
export async function getNotifications(signal?: AbortSignal): Promise<NotificationPage> {
  return api.get<NotificationPage>('/notifications', {
    query: { page: 1, pageSize: bellPageSize },
    signal,
    showSpinner: false,
    alertOnError: false,
  });
}

export const notificationsQuery = queryOptions({
  queryKey: queryKeys.notifications.latest(),
  queryFn: ({ signal }) => getNotifications(signal),
  staleTime: 60_000,
  retry: false,
});

export function useNotifications() {
  return useQuery(notificationsQuery);
}

/** Puts a notification that just arrived at the top of the cached list (once) and counts it unread. */
export function addNotificationToCache(queryClient: QueryClient, notification: Notification): void {
  queryClient.setQueryData<NotificationPage>(queryKeys.notifications.latest(), (page) => {
    if (!page || page.data.some((item) => item.id === notification.id)) {
      return page;
    }
    return {
      ...page,
      data: [notification, ...page.data].slice(0, page.pageSize),
      total: page.total + 1,
      unreadCount: page.unreadCount + (notification.readAt === null ? 1 : 0),
    };
  });
}
