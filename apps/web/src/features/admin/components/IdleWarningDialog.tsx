import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import { Button, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconClockPause } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/modal/AppModal';
import { formatWaitDuration } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';

/**
 * The idle warning (its own chunk: fetched while the browser is idle after the first screen, and
 * shown by `IdleSessionWatcher` a minute before the server would end the session): the countdown,
 * "stay signed in" (not for the session's absolute end) and "sign out".
 */
export function IdleWarningDialog({
  secondsLeft,
  isAbsolute,
  isStaying,
  onStay,
  onSignOut,
}: {
  secondsLeft: number;
  isAbsolute: boolean;
  isStaying: boolean;
  onStay: () => void;
  onSignOut: () => void;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  return (
    <AppModal
      isStatic
      opened
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
          <Button variant="default" onClick={onSignOut} data-testid="idle-warning-sign-out">
            {t('admin.userMenu.signOut')}
          </Button>
          {isAbsolute ? null : (
            <Button onClick={onStay} loading={isStaying} data-autofocus data-testid="idle-warning-stay">
              {t('admin.idle.stay')}
            </Button>
          )}
        </Group>
      </Stack>
    </AppModal>
  );
}
