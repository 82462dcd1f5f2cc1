import { Button, Group } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconLoader2 } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { uiState } from '../../../lib/ui-state';

const spinnerDemoMs = 2000;

/** Publishes sample alerts and turns the loading flag on, to see the global dialog and spinner. */
export function MessagesDemo() {
  const { t } = useTranslation();
  const timerRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timerRef.current) {
        clearTimeout(timerRef.current);
      }
    },
    [],
  );
  const handleSpinner = () => {
    const release = uiState.getState().beginLoading();
    timerRef.current = setTimeout(release, spinnerDemoMs);
  };
  return (
    <Group gap="sm">
      <Button
        variant="light"
        color="red"
        leftSection={<IconAlertTriangle size={18} />}
        onClick={() =>
          uiState.getState().publishAlert({ type: 'error', content: t('showcase.messages.sampleError') })
        }
        data-testid="showcase-show-error"
      >
        {t('showcase.messages.showError')}
      </Button>
      <Button
        variant="light"
        color="teal"
        leftSection={<IconCircleCheck size={18} />}
        onClick={() =>
          uiState.getState().publishAlert({ type: 'success', content: t('showcase.messages.sampleSuccess') })
        }
        data-testid="showcase-show-success"
      >
        {t('showcase.messages.showSuccess')}
      </Button>
      <Button
        variant="default"
        leftSection={<IconLoader2 size={18} />}
        onClick={handleSpinner}
        data-testid="showcase-show-spinner"
      >
        {t('showcase.messages.showSpinner', { seconds: spinnerDemoMs / 1000 })}
      </Button>
    </Group>
  );
}
