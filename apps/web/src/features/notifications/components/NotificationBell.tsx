import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Indicator.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/notifications/styles.layer.css';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Indicator,
  Popover,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { Notifications, notifications as toasts } from '@mantine/notifications';
import { IconBell, IconCheck } from '@tabler/icons-react';
import type { Notification } from '@telemedicina/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useMe } from '../../../lib/session';
import { useLanguage } from '../../../lib/ui-state';
import { addNotificationToCache, useNotifications } from '../api/get-notifications';
import { useReadAllNotifications } from '../api/read-all-notifications';
import { useReadNotification } from '../api/read-notification';
import { describeNotification } from '../notification-text';
import classes from './NotificationBell.module.css';

/** Shown on the badge; more than this reads "99+". */
const maxBadgeCount = 99;

/**
 * The header's bell: the unread count on a badge, a popover with the newest notifications (worded
 * by kind, times in the viewer's zone, each leading to its appointment), mark one or all read, and
 * live arrivals over Socket.IO (`notification.created`) added to the list with a toast.
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const language = useLanguage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const timeZone = useMe().data?.user.timeZone;
  const isPhone = useMediaQuery('(max-width: 36em)') ?? false;
  const [isOpen, { toggle, close }] = useDisclosure(false);
  const list = useNotifications();
  const readOne = useReadNotification();
  const readAll = useReadAllNotifications();
  const unread = list.data?.unreadCount ?? 0;

  // Listen only once the list answered: the session is good and the server has notifications.
  useRealtimeEvent(
    'notification.created',
    (notification: Notification) => {
      addNotificationToCache(queryClient, notification);
      const view = describeNotification(notification, t, language, timeZone);
      toasts.show({
        id: `notification-${notification.id}`,
        title: view.title,
        message: view.body,
        color: 'teal',
        icon: <IconBell size={18} aria-hidden />,
        autoClose: 8_000,
        withBorder: true,
      });
    },
    list.isSuccess,
  );

  const handleOpen = (notification: Notification, link: string | null) => {
    if (notification.readAt === null) {
      readOne.mutate(notification.id);
    }
    close();
    if (link !== null) {
      void navigate(link);
    }
  };

  const label =
    unread > 0 ? t('notifications.bell.labelUnread', { count: unread }) : t('notifications.bell.label');

  return (
    <>
      {/* Toasts at the bottom: the header (and the bell they refer to) stays visible. */}
      <Notifications position={isPhone ? 'bottom-center' : 'bottom-right'} limit={3} zIndex={400} />
      <Popover
        opened={isOpen}
        onChange={(opened) => (opened ? undefined : close())}
        onDismiss={close}
        position="bottom-end"
        // The bell itself carries aria-expanded/haspopup; the Indicator <div> around it must not.
        withRoles={false}
        shadow="md"
        width={isPhone ? 'calc(100vw - 16px)' : 420}
        withinPortal
        trapFocus
        returnFocus
        middlewares={{ shift: { padding: 8 }, flip: false }}
        classNames={{ dropdown: classes.dropdown }}
      >
        <Popover.Target>
          <Indicator
            label={unread > maxBadgeCount ? `${maxBadgeCount}+` : unread}
            disabled={unread === 0}
            size={18}
            offset={6}
            color="red"
            withBorder
            classNames={{ indicator: classes.badge }}
            data-testid="notification-badge"
          >
            <ActionIcon
              variant="subtle"
              color="gray"
              size="lg"
              radius="xl"
              onClick={toggle}
              aria-label={label}
              aria-haspopup="dialog"
              aria-expanded={isOpen}
              data-testid="notification-bell"
              data-unread={unread}
            >
              <IconBell size={22} stroke={1.7} aria-hidden />
            </ActionIcon>
          </Indicator>
        </Popover.Target>
        <Popover.Dropdown
          role="dialog"
          aria-labelledby="notification-panel-title"
          data-testid="notification-panel"
        >
          <Group justify="space-between" wrap="nowrap" className={classes.panelHeader}>
            <Text
              id="notification-panel-title"
              fw={700}
              tabIndex={-1}
              data-autofocus
              className={classes.panelTitle}
            >
              {t('notifications.bell.title')}
            </Text>
            {unread > 0 ? (
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() => readAll.mutate()}
                loading={readAll.isPending}
                className={classes.readAll}
                data-testid="notification-read-all"
              >
                {t('notifications.bell.markAllRead')}
              </Button>
            ) : null}
          </Group>
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
                        onClick={() => handleOpen(notification, view.link)}
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
                              <span className={classes.visuallyHidden}>
                                {' '}
                                ({t('notifications.bell.unread')})
                              </span>
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
                            onClick={() => readOne.mutate(notification.id)}
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
        </Popover.Dropdown>
      </Popover>
    </>
  );
}
