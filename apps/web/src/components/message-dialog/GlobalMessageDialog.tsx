import { lazy, Suspense, useState } from 'react';
import { uiState } from '../../lib/ui-state';
import { usePrefetchWhenIdle } from '../../lib/use-prefetch-when-idle';

const loadMessageDialog = () => import('./MessageDialog');
const LazyMessageDialog = lazy(async () => ({ default: (await loadMessageDialog()).MessageDialog }));

/**
 * The root's message dialog. The dialog (Mantine's modal and DOMPurify) is its own chunk, fetched
 * while the browser is idle after the first screen, so the start page downloads less and an alert
 * still opens at once — even one saying the network has just gone away.
 */
export function GlobalMessageDialog() {
  const hasAlert = uiState((state) => state.alert !== null);
  const [isNeeded, setIsNeeded] = useState(hasAlert);
  if (hasAlert && !isNeeded) {
    setIsNeeded(true);
  }

  usePrefetchWhenIdle(loadMessageDialog, 2000);

  return isNeeded ? (
    <Suspense fallback={null}>
      <LazyMessageDialog />
    </Suspense>
  ) : null;
}
