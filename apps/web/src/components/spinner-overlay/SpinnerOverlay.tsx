import { Loader, Portal, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useIsLoading } from '../../lib/ui-state';
import classes from './SpinnerOverlay.module.css';
import { spinnerTiming, useDelayedVisibility } from './use-delayed-visibility';

/**
 * The one global loading overlay (specification §4): shown while the shared loading flag is on,
 * after a short delay so quick requests cause no flicker. It covers the page (and any dialog) so
 * nothing is clicked twice while a request is in flight.
 */
export function SpinnerOverlay() {
  const { t } = useTranslation();
  const isLoading = useIsLoading();
  const isVisible = useDelayedVisibility(isLoading, spinnerTiming);
  if (!isVisible) {
    return null;
  }
  return (
    <Portal>
      <div
        className={classes.overlay}
        data-testid="spinner-overlay"
        role="status"
        aria-live="polite"
        aria-busy="true"
      >
        <div className={classes.panel}>
          <Loader size="lg" type="oval" aria-hidden />
          <VisuallyHidden>{t('spinner.label')}</VisuallyHidden>
        </div>
      </div>
    </Portal>
  );
}
