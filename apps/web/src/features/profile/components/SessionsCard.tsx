import { Badge, Button, Group, Paper, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDeviceDesktop, IconDeviceMobile, IconLogout } from '@tabler/icons-react';
import type { ActiveSession } from '@telemedicina/shared/auth';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { useRevokeOtherSessions, useRevokeSession, useSessions } from '../api/sessions';
import { describeUserAgent } from '../user-agent';
import classes from './Profile.module.css';

/** Where the account is signed in: device, address, last activity; sign out one or all others. */
export function SessionsCard({ timeZone }: { timeZone: string }) {
  const { t } = useTranslation();
  const sessions = useSessions();
  const revokeOthers = useRevokeOtherSessions();
  const list = sessions.data ?? [];
  const hasOthers = list.some((session) => !session.isCurrent);

  return (
    <Paper withBorder radius="lg" className={classes.card} component="section" data-testid="profile-sessions">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
          <div>
            <Title order={2} size="h4">
              {t('profile.sessions.title')}
            </Title>
            <Text size="sm" c="gray.7" mt={4}>
              {t('profile.sessions.description')}
            </Text>
          </div>
          {hasOthers ? (
            <Button
              variant="default"
              color="red"
              leftSection={<IconLogout size={18} />}
              loading={revokeOthers.isPending}
              onClick={() => revokeOthers.mutate()}
              data-testid="sessions-revoke-others"
            >
              {t('profile.sessions.revokeOthers')}
            </Button>
          ) : null}
        </Group>
        {sessions.isPending ? (
          <Stack gap="xs" aria-busy="true">
            <Skeleton height={48} radius="md" />
            <Skeleton height={48} radius="md" />
          </Stack>
        ) : sessions.isError ? (
          <Text size="sm" c="red.8">
            {t('profile.sessions.unavailable')}
          </Text>
        ) : (
          <ul className={classes.sessionList} data-testid="sessions-list">
            {[...list]
              .sort(
                (a, b) =>
                  Number(b.isCurrent) - Number(a.isCurrent) || b.lastSeenAt.localeCompare(a.lastSeenAt),
              )
              .map((session) => (
                <SessionRow key={session.id} session={session} timeZone={timeZone} />
              ))}
          </ul>
        )}
      </Stack>
    </Paper>
  );
}

function SessionRow({ session, timeZone }: { session: ActiveSession; timeZone: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const revoke = useRevokeSession();
  const device = describeUserAgent(session.userAgent);
  const deviceName =
    device.browser && device.os
      ? t('profile.sessions.device', { browser: device.browser, os: device.os })
      : (device.browser ?? device.os ?? t('profile.sessions.unknownDevice'));
  const DeviceIcon = device.isMobile ? IconDeviceMobile : IconDeviceDesktop;

  return (
    <li
      className={classes.sessionRow}
      data-testid="session-row"
      data-current={session.isCurrent}
      data-session-id={session.id}
    >
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ThemeIcon size={38} radius="md" variant="light" color="gray" aria-hidden>
          <DeviceIcon size={20} />
        </ThemeIcon>
        <Stack gap={2}>
          <Group gap={8}>
            <Text fw={600} size="sm" data-testid="session-device">
              {deviceName}
            </Text>
            {session.isCurrent ? (
              <Badge size="sm" color="teal" variant="light" data-testid="session-current">
                {t('profile.sessions.thisDevice')}
              </Badge>
            ) : null}
          </Group>
          <Text size="xs" c="gray.7">
            {t('profile.sessions.details', {
              ip: session.ipAddress ?? t('profile.sessions.unknownIp'),
              time: formatDateTime(session.lastSeenAt, language, timeZone),
            })}
          </Text>
        </Stack>
      </Group>
      {session.isCurrent ? null : (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          loading={revoke.isPending}
          onClick={() => revoke.mutate(session.id)}
          aria-label={t('profile.sessions.revokeLabel', { device: deviceName })}
          data-testid="session-revoke"
        >
          {t('profile.sessions.revoke')}
        </Button>
      )}
    </li>
  );
}
