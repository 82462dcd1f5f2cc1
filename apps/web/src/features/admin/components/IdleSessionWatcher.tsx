import type { SessionInfo } from '@telemedicina/shared/auth';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { createIdleController, type IdleController, type IdleView } from '../../../lib/idle-timer';
import { signInPathFor } from '../../../lib/return-to';
import { useSignOut } from '../../../lib/session';
import { lastServerContactStorageKey, sessionState } from '../../../lib/session-state';
import { usePrefetchWhenIdle } from '../../../lib/use-prefetch-when-idle';
import { queryKeys } from '../../../lib/query-keys';

const loadIdleWarningDialog = () => import('./IdleWarningDialog');
const LazyIdleWarningDialog = lazy(async () => ({
  default: (await loadIdleWarningDialog()).IdleWarningDialog,
}));

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
      ping: () => queryClient.refetchQueries({ queryKey: queryKeys.me(), exact: true }),
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

  // The warning's code is fetched while the browser is idle, so it shows at once (even offline).
  usePrefetchWhenIdle(loadIdleWarningDialog);

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

  return isWarning ? (
    <Suspense fallback={null}>
      <LazyIdleWarningDialog
        secondsLeft={secondsLeft}
        isAbsolute={isAbsolute}
        isStaying={isStaying}
        onStay={() => void handleStay()}
        onSignOut={() => void signOut('signedOut')}
      />
    </Suspense>
  ) : null;
}
