import { Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useServerHealth } from '../../../lib/server-status';
import classes from './AuthLayout.module.css';

/** A one-line, real status of the server this page came from. */
export function ServerStatus() {
  const { t } = useTranslation();
  const health = useServerHealth();
  const state = health.isPending ? 'checking' : health.isSuccess ? 'online' : 'offline';
  return (
    <Group gap={8} wrap="nowrap" data-testid="server-status" data-state={state}>
      <span className={classes.statusDot} data-state={state} aria-hidden />
      <Text size="sm" c="gray.7">
        {health.isSuccess
          ? t('auth.status.online', { version: health.data.version })
          : health.isPending
            ? t('auth.status.checking')
            : t('auth.status.offline')}
      </Text>
    </Group>
  );
}
