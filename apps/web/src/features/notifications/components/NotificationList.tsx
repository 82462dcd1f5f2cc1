import '@mantine/core/styles/ScrollArea.layer.css';
import {
  ActionIcon,
  Alert,
  Button,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { Notification } from '@telemedicina/shared/notifications';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import type { useNotifications } from '../api/get-notifications';
import { describeNotification } from '../notification-text';
import classes from './NotificationBell.module.css';

/**
 * The bell panel's list (its own chunk, fetched when the browser is idle after the first screen or
 * when the panel opens): each notification worded by kind with its time in the viewer's zone,
 * opening its link, with "mark as read" on unread ones; a retry when the list could not be read.
 */
export function NotificationList({
  list,
  isPhone,
  timeZone,
  onOpen,
  onRead,
}: {
  list: ReturnType<typeof useNotifications>;
  isPhone: boolean;
  timeZone: string;
  onOpen: (notification: Notification, link: string | null) => void;
  onRead: (id: string) => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <>
      {list.isPending ? (
        <Stack gap="xs" p="sm" aria-busy="true">
          <Skeleton height={48} />
          <Skeleton height={48} />
        </Stack>
      ) : list.isError ? (
        <Alert color="red" variant="light" m="sm" role="alert">
          <Stack gap="xs" align="flex-start">
            <span>{t('notifications.bell.error')}</span>
            <Button size="compact-sm" variant="light" color="red" onClick={() => void list.refetch()}>
              {t('notifications.bell.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : list.data.data.length === 0 ? (
        <Text c="dimmed" size="sm" p="md" ta="center" data-testid="notification-empty">
          {t('notifications.bell.empty')}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={isPhone ? '70dvh' : 440} type="auto">
          <ul className={classes.list} data-testid="notification-list">
            {list.data.data.map((notification) => {
              const view = describeNotification(notification, t, language, timeZone);
              const isUnread = notification.readAt === null;
              return (
                <li
                  key={notification.id}
                  className={classes.item}
                  data-unread={isUnread || undefined}
                  data-testid="notification-item"
                  data-kind={notification.kind}
                >
                  <UnstyledButton
                    className={classes.itemMain}
                    onClick={() => onOpen(notification, view.link)}
                    data-testid="notification-open"
                  >
                    <span className={classes.dot} aria-hidden />
                    <span className={classes.itemText}>
                      <Text
                        component="span"
                        fw={isUnread ? 700 : 500}
                        size="sm"
                        className={classes.itemTitle}
                      >
                        {view.title}
                        {isUnread ? (
                          <span className={classes.visuallyHidden}> ({t('notifications.bell.unread')})</span>
                        ) : null}
                      </Text>
                      <Text component="span" size="sm" className={classes.itemBody}>
                        {view.body}
                      </Text>
                      <Text component="span" size="xs" c="dimmed" className={classes.itemTime}>
                        {t('notifications.bell.received', {
                          time: formatDateTime(notification.createdAt, language, timeZone),
                        })}
                      </Text>
                    </span>
                  </UnstyledButton>
                  {isUnread ? (
                    <Tooltip label={t('notifications.bell.markRead')} withinPortal={false}>
                      <ActionIcon
                        variant="subtle"
                        color="gray"
                        size="md"
                        className={classes.itemAction}
                        aria-label={`${t('notifications.bell.markRead')}: ${view.title}`}
                        onClick={() => onRead(notification.id)}
                        data-testid="notification-read"
                      >
                        <IconCheck size={16} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  ) : null}
                </li>
              );
            })}
          </ul>
          {list.data.total > list.data.data.length ? (
            <Text size="xs" c="dimmed" ta="center" p="xs">
              {t('notifications.bell.showing', { count: list.data.data.length })}
            </Text>
          ) : null}
        </ScrollArea.Autosize>
      )}
    </>
  );
}
