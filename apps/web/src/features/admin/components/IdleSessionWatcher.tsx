import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconClockPause } from '@tabler/icons-react';
import type { SessionInfo } from '@telemedicina/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { AppModal } from '../../../components/modal/AppModal';
import { formatWaitDuration } from '../../../lib/format';
import { createIdleController, type IdleController, type IdleView } from '../../../lib/idle-timer';
import { signInPathFor } from '../../../lib/return-to';
import { meQueryKey, useSignOut } from '../../../lib/session';
import { lastServerContactStorageKey, sessionState } from '../../../lib/session-state';
import { useLanguage } from '../../../lib/ui-state';

const activityEvents = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart', 'scroll'] as const;

/**
 * Idle logout for the signed-in area (timing rules in `lib/idle-timer.ts`): tracks activity on the
 * page, keeps the server's session alive while the person is active (at most one `GET /me` a
 * minute), warns a minute before the server would end the session, and signs out at zero.
 */
export function IdleSessionWatcher({
  session,
}: {
  session: Pick<SessionInfo, 'idleTimeoutSeconds' | 'expiresAt'>;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const queryClient = useQueryClient();
  const signOut = useSignOut();
  const location = useLocation();
  const [view, setView] = useState<IdleView>({ phase: 'active' });
  const [isStaying, setIsStaying] = useState(false);
  const controllerRef = useRef<IdleController | null>(null);
  const pathRef = useRef('');
  const signOutRef = useRef(signOut);
  useEffect(() => {
    pathRef.current = `${location.pathname}${location.search}`;
    signOutRef.current = signOut;
  });
  const { idleTimeoutSeconds, expiresAt } = session;

  useEffect(() => {
    const absolute = Date.parse(expiresAt);
    const controller = createIdleController({
      idleTimeoutMs: idleTimeoutSeconds * 1000,
      absoluteExpiresAt: Number.isNaN(absolute) ? null : absolute,
      getLastServerContactAt: () => sessionState.getState().lastServerContactAt,
      ping: () => queryClient.refetchQueries({ queryKey: meQueryKey, exact: true }),
      onViewChange: setView,
      onExpire: (reason) => {
        setView({ phase: 'active' });
        void signOutRef.current(reason === 'idle' ? 'idle' : 'expired', signInPathFor(pathRef.current));
      },
    });
    controllerRef.current = controller;
    const handleActivity = () => controller.recordActivity();
    const handleVisibility = () => {
      if (document.visibilityState === 'visible') {
        // Judge the time spent away first (a laptop that slept past the end is signed out).
        controller.evaluate();
        controller.recordActivity();
      }
    };
    const handleStorage = (event: StorageEvent) => {
      if (event.key === lastServerContactStorageKey && event.newValue) {
        const at = Number(event.newValue);
        if (Number.isFinite(at) && at > sessionState.getState().lastServerContactAt) {
          sessionState.setState({ lastServerContactAt: at });
        }
      }
    };
    for (const name of activityEvents) {
      window.addEventListener(name, handleActivity, { capture: true, passive: true });
    }
    document.addEventListener('visibilitychange', handleVisibility);
    window.addEventListener('storage', handleStorage);
    controller.start();
    return () => {
      controller.stop();
      controllerRef.current = null;
      for (const name of activityEvents) {
        window.removeEventListener(name, handleActivity, { capture: true });
      }
      document.removeEventListener('visibilitychange', handleVisibility);
      window.removeEventListener('storage', handleStorage);
    };
  }, [idleTimeoutSeconds, expiresAt, queryClient]);

  const handleStay = async () => {
    setIsStaying(true);
    try {
      await controllerRef.current?.stayConnected();
    } finally {
      setIsStaying(false);
    }
  };

  const isWarning = view.phase === 'warning';
  const secondsLeft = view.phase === 'warning' ? view.secondsLeft : 0;
  const isAbsolute = view.phase === 'warning' && view.reason === 'absolute';

  return (
    <AppModal
      isStatic
      opened={isWarning}
      onClose={() => undefined}
      withCloseButton={false}
      centered
      size="md"
      title={t('admin.idle.title')}
      styles={{ title: { fontWeight: 650, fontSize: 'var(--mantine-font-size-lg)' } }}
      attributes={{ content: { 'data-testid': 'idle-warning' } }}
    >
      <Stack gap="md">
        <Group wrap="nowrap" align="flex-start" gap="md">
          <ThemeIcon size={44} radius="xl" variant="light" color="orange" aria-hidden>
            <IconClockPause size={24} />
          </ThemeIcon>
          <Stack gap={4}>
            <Text>{isAbsolute ? t('admin.idle.absolute') : t('admin.idle.text')}</Text>
            <Text
              fw={700}
              size="lg"
              role="timer"
              data-testid="idle-warning-countdown"
              data-seconds={secondsLeft}
            >
              {t('admin.idle.countdown', { duration: formatWaitDuration(secondsLeft, language, 'second') })}
            </Text>
          </Stack>
        </Group>
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            onClick={() => void signOut('signedOut')}
            data-testid="idle-warning-sign-out"
          >
            {t('admin.userMenu.signOut')}
          </Button>
          {isAbsolute ? null : (
            <Button
              onClick={() => void handleStay()}
              loading={isStaying}
              data-autofocus
              data-testid="idle-warning-stay"
            >
              {t('admin.idle.stay')}
            </Button>
          )}
        </Group>
      </Stack>
    </AppModal>
  );
}
