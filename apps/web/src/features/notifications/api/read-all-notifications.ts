import type { NotificationPage, NotificationsReadAllResult } from '@telemedicina/shared/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /notifications/read-all` → how many were marked and what is still unread (0 unless new ones came). */
export async function readAllNotifications(): Promise<NotificationsReadAllResult> {
  return api.post<NotificationsReadAllResult>('/notifications/read-all', undefined, { showSpinner: false });
}

/** Marks every own notification read; the cached list shows them read at once. */
export function useReadAllNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: readAllNotifications,
    onSuccess: (result) => {
      const readAt = new Date().toISOString();
      queryClient.setQueryData<NotificationPage>(queryKeys.notifications.latest(), (page) =>
        page
          ? {
              ...page,
              data: page.data.map((item) => (item.readAt === null ? { ...item, readAt } : item)),
              unreadCount: result.unreadCount,
            }
          : page,
      );
    },
  });
}
