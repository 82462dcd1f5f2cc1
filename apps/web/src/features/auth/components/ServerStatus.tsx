import { Group, Text } from '@mantine/core';
import type { HealthResponse } from '@telemedicina/shared/api';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getServerHealth } from '../../../lib/server-health';
import classes from './AuthLayout.module.css';

/** A one-line, real status of the server this page came from. */
export function ServerStatus() {
  const { t } = useTranslation();
  const health = useServerHealthOnce();
  const state = health === 'checking' ? 'checking' : health === 'offline' ? 'offline' : 'online';
  return (
    <Group gap={8} wrap="nowrap" data-testid="server-status" data-state={state}>
      <span className={classes.statusDot} data-state={state} aria-hidden />
      <Text size="sm" c="gray.7">
        {typeof health === 'object'
          ? t('auth.status.online', { version: health.version })
          : health === 'checking'
            ? t('auth.status.checking')
            : t('auth.status.offline')}
      </Text>
    </Group>
  );
}

/**
 * `GET /health` once per mount, without the query cache: the status shows on the signed-out start
 * page before the rest of the application (and its cache) is downloaded.
 */
function useServerHealthOnce(): HealthResponse | 'checking' | 'offline' {
  const [health, setHealth] = useState<HealthResponse | 'checking' | 'offline'>('checking');
  useEffect(() => {
    const controller = new AbortController();
    getServerHealth(controller.signal).then(setHealth, () => {
      if (!controller.signal.aborted) {
        setHealth('offline');
      }
    });
    return () => controller.abort();
  }, []);
  return health;
}
