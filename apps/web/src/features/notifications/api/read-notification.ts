import type { Notification, NotificationPage } from '@telemedicina/shared/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /notifications/:id/read` → the notification, read (404 when it is not one's own). */
export async function readNotification(id: string): Promise<Notification> {
  return api.post<Notification>(`/notifications/${encodeURIComponent(id)}/read`, undefined, {
    showSpinner: false,
  });
}

/** Marks one notification read and updates the bell's list and count with the answer. */
export function useReadNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: readNotification,
    onSuccess: (read) => {
      queryClient.setQueryData<NotificationPage>(queryKeys.notifications.latest(), (page) => {
        if (!page) {
          return page;
        }
        const wasUnread = page.data.some((item) => item.id === read.id && item.readAt === null);
        return {
          ...page,
          data: page.data.map((item) => (item.id === read.id ? read : item)),
          unreadCount: Math.max(0, page.unreadCount - (wasUnread ? 1 : 0)),
        };
      });
    },
  });
}
