import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useNavigation } from 'react-router';
import { GlobalMessageDialog } from '../components/message-dialog/GlobalMessageDialog';
import { SpinnerOverlay } from '../components/spinner-overlay/SpinnerOverlay';
import { useSessionSync } from '../lib/session';
import { uiState } from '../lib/ui-state';

/**
 * The root screen (specification §2): the routed view, the one global message dialog and the one
 * global spinner overlay. Loading a lazy area turns the loading flag on like a request does. The
 * session (GET /me, once per page load) is kept in step with the permissions and the language here.
 */
export function RootLayout() {
  const navigation = useNavigation();
  const isNavigating = navigation.state !== 'idle';
  useEffect(() => (isNavigating ? uiState.getState().beginLoading() : undefined), [isNavigating]);
  useSessionSync();
  return (
    <>
      <Outlet />
      <GlobalMessageDialog />
      <SpinnerOverlay />
      <ScrollRestoration />
    </>
  );
}
