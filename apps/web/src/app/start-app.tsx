import type { MeResponse } from '@telemedicina/shared/auth';
import type { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { startTransition, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { getPublicConfig, publicConfigQuery, readPublicConfig } from '../lib/public-config';
import { applySessionPermissions, getMe, meQuery } from '../lib/session';
import { AppProviders, createQueryClient } from './AppProviders';
import { routes } from './routes';

/**
 * Boots the whole application in `root` at the page's current address (`main.tsx` loads this
 * chunk for every page but the signed-out start page, and there once the person signs in or
 * follows a link). `me` is the session as the start already knows it, or its pending `GET /me`
 * (asked by `main.tsx` in parallel with this chunk, so it is not asked twice); `config`, when given,
 * the pending `GET /config` asked likewise, which the public settings' query starts from.
 * `beforeFirstRender`, when given, fills the query cache with answers the page asked for as it
 * booted (the patient's home: `features/portal/api/portal-seed.ts`), so the first render has them;
 * the application renders once it has settled, whatever its outcome.
 */
export async function startApp(
  root: Root,
  i18n: I18n,
  me: MeResponse | null | Promise<MeResponse | null>,
  config?: Promise<unknown>,
  beforeFirstRender?: (queryClient: QueryClient) => Promise<void>,
): Promise<void> {
  const queryClient = createQueryClient();
  if (me instanceof Promise) {
    // A failed early request is asked again the usual way (the query's own retry applies).
    void queryClient.prefetchQuery({ ...meQuery, queryFn: ({ signal }) => me.catch(() => getMe(signal)) });
  } else {
    queryClient.setQueryData(meQuery.queryKey, me);
    if (me) {
      // What `useSessionSync` would set on mount, set before the first render: set after it, every
      // reader of the permissions (the whole frame: its navigation) rendered again in the commit.
      applySessionPermissions(me.permissions);
    }
  }
  if (config) {
    void queryClient.prefetchQuery({
      ...publicConfigQuery,
      queryFn: () => config.then(readPublicConfig, () => getPublicConfig()),
    });
  }
  if (beforeFirstRender) {
    await beforeFirstRender(queryClient).catch(() => undefined);
  }
  const router = createBrowserRouter(routes);
  // A transition: React renders the application in slices, yielding to the browser between them,
  // instead of one long task that keeps the page from answering input.
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProviders i18n={i18n} queryClient={queryClient}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
    ),
  );
}
