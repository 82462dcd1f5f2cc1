import type { MeResponse } from '@telemedicina/shared/auth';
import { isLanguage } from '@telemedicina/shared/i18n';
import { queryOptions, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { api, ApiError } from './api-client';
import { getMe } from './me';
import { hasChosenLanguageThisSession } from './i18n';
import { sessionState, type SessionEndReason } from './session-state';
import { queryKeys } from './query-keys';
import { uiState } from './ui-state';

export { getMe, isMeResponse } from './me';

export const meQuery = queryOptions({
  queryKey: queryKeys.me(),
  queryFn: ({ signal }) => getMe(signal),
  // Asked once per page load; sign-in, profile changes and keep-alive pings update it explicitly.
  staleTime: Infinity,
  gcTime: Infinity,
  retry: (failureCount, error) =>
    failureCount < 1 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
});

/** The signed-in user (`data` null when signed out, undefined while the first answer is awaited). */
export function useMe() {
  return useQuery(meQuery);
}

/** Puts a fresh `MeResponse` (login, invitation, profile change) in the cache; the page follows it. */
export function storeMe(queryClient: QueryClient, me: MeResponse): void {
  queryClient.setQueryData(queryKeys.me(), me);
}

/**
 * Puts a known session in the shared state: signed in with its permissions, or (null) signed out
 * with none. `useSessionSync` does it on mount and whenever the session changes; `startApp` does
 * it before the first render when the session is already known.
 */
export function applySessionPermissions(permissions: readonly string[] | null): void {
  if (permissions) {
    sessionState.getState().markSignedIn();
    uiState.getState().setPermissions(permissions);
  } else {
    uiState.getState().setPermissions([]);
  }
}

/**
 * Keeps the rest of the page in step with the session, once at the root: the permission list of
 * the UI state follows the user's; the interface language follows the account's saved language
 * when someone signs in (unless they picked one with the switcher in this browser session); and
 * when the session ends — sign-out, idle logout, or a 401 from any request — every cached answer
 * is dropped so nothing of the previous user stays in memory.
 */
export function useSessionSync(): void {
  const queryClient = useQueryClient();
  const me = useMe();
  const languageAppliedFor = useRef<string | null>(null);
  const user = me.data?.user;
  const permissions = me.data?.permissions;
  const isSignedOut = me.data === null;

  useEffect(() => {
    if (permissions) {
      applySessionPermissions(permissions);
    } else if (isSignedOut) {
      applySessionPermissions(null);
    }
  }, [permissions, isSignedOut]);

  useEffect(() => {
    if (!user) {
      languageAppliedFor.current = null;
      return;
    }
    if (languageAppliedFor.current === user.id) {
      return;
    }
    languageAppliedFor.current = user.id;
    if (!hasChosenLanguageThisSession() && isLanguage(user.language)) {
      uiState.getState().setLanguage(user.language);
    }
  }, [user]);

  useEffect(
    () =>
      sessionState.subscribe((state, previous) => {
        if (previous.isSignedIn && !state.isSignedIn) {
          clearSessionData(queryClient);
        }
      }),
    [queryClient],
  );
}

/** Drops every cached answer and the permissions, leaving the cache saying "signed out". */
export function clearSessionData(queryClient: QueryClient): void {
  queryClient.removeQueries({
    predicate: (query) => !(query.queryKey.length === 1 && query.queryKey[0] === queryKeys.me()[0]),
  });
  queryClient.setQueryData(queryKeys.me(), null);
  uiState.getState().setPermissions([]);
}

/**
 * Signs out: asks the server to end the session (it answers 204 even without one), then clears
 * the page's data and goes to the sign-in page — with the idle notice when the timer did it.
 */
export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(
    async (reason: SessionEndReason = 'signedOut', returnTo?: string) => {
      try {
        await api.post('/auth/logout', undefined, { alertOnError: false });
      } catch {
        // Offline or already gone: the page forgets the session all the same.
      }
      sessionState.getState().endSession(reason);
      clearSessionData(queryClient);
      await navigate(returnTo ?? '/', { replace: true });
    },
    [navigate, queryClient],
  );
}
