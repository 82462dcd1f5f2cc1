import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Indicator.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/notifications/styles.layer.css';
import { ActionIcon, Button, Group, Indicator, Popover, Skeleton, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Notifications, notifications as toasts } from '@mantine/notifications';
import { IconBell } from '@tabler/icons-react';
import type { Notification } from '@telemedicina/shared/notifications';
import { portalPathFor } from '@telemedicina/shared/portal';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useRealtimeEvent } from '../../../lib/realtime';
import { useLanguage } from '../../../lib/ui-state';
import { addNotificationToCache, useNotifications } from '../api/get-notifications';
import { useReadAllNotifications } from '../api/read-all-notifications';
import { useReadNotification } from '../api/read-notification';
import { describeNotification } from '../notification-text';
import classes from './NotificationBell.module.css';
import { usePrefetchWhenIdle } from '../../../lib/use-prefetch-when-idle';
import { useMediaMatch } from '../../../lib/use-media-match';
import { useViewerTimeZone } from '../../../lib/use-clock';

const loadNotificationList = () => import('./NotificationList');
const LazyNotificationList = lazy(async () => ({ default: (await loadNotificationList()).NotificationList }));

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
  const timeZone = useViewerTimeZone();
  const isPhone = useMediaMatch('(max-width: 36em)');
  const [isOpen, { toggle, close }] = useDisclosure(false);
  // The toast area (one container per screen corner) is put on the page with the first toast, not
  // on every page load: the signed-in pages' first paint does not pay for it.
  const [hasToasts, setHasToasts] = useState(false);
  const list = useNotifications();
  const readOne = useReadNotification();
  const readAll = useReadAllNotifications();
  const unread = list.data?.unreadCount ?? 0;

  // The panel's list is fetched while the browser is idle after the first screen, so it opens at once.
  usePrefetchWhenIdle(loadNotificationList);

  // Listen only once the list answered: the session is good and the server has notifications.
  useRealtimeEvent(
    'notification.created',
    (notification: Notification) => {
      addNotificationToCache(queryClient, notification);
      const view = describeNotification(notification, t, language, timeZone);
      setHasToasts(true);
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

  const isInPortal = useLocation().pathname.toLowerCase().startsWith('/portal');
  const handleOpen = (notification: Notification, link: string | null) => {
    if (notification.readAt === null) {
      readOne.mutate(notification.id);
    }
    close();
    if (link !== null) {
      // In the patient's portal, its own page (not the admin area's, which would redirect).
      void navigate(isInPortal ? (portalPathFor(link) ?? link) : link);
    }
  };

  const label =
    unread > 0 ? t('notifications.bell.labelUnread', { count: unread }) : t('notifications.bell.label');

  return (
    <>
      {/* Toasts at the bottom: the header (and the bell they refer to) stays visible. */}
      {hasToasts ? (
        <Notifications position={isPhone ? 'bottom-center' : 'bottom-right'} limit={3} zIndex={400} />
      ) : null}
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
          <Suspense
            fallback={
              <Stack gap="xs" p="sm" aria-busy="true">
                <Skeleton height={48} />
                <Skeleton height={48} />
              </Stack>
            }
          >
            <LazyNotificationList
              list={list}
              isPhone={isPhone}
              timeZone={timeZone}
              onOpen={handleOpen}
              onRead={(id) => readOne.mutate(id)}
            />
          </Suspense>
        </Popover.Dropdown>
      </Popover>
    </>
  );
}
