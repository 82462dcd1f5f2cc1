import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useDelayedVisibility } from '../spinner-overlay/use-delayed-visibility';

/**
 * A loader for a screen waiting for its first answer that shows only if the wait is noticeable,
 * so a quick answer causes no flicker.
 */
export function DelayedLoader({
  minHeight = 160,
  delayMs = 300,
}: {
  minHeight?: number | string;
  delayMs?: number;
}) {
  const { t } = useTranslation();
  const isVisible = useDelayedVisibility(true, { delayMs, minVisibleMs: 0 });
  return (
    <Center mih={minHeight} data-testid="delayed-loader">
      {isVisible ? <Loader aria-label={t('spinner.label')} /> : null}
    </Center>
  );
}
