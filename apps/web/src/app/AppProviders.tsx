import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { cssVariablesResolver, theme } from '../lib/theme';

/** The application's server-state cache, with its defaults. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { refetchOnWindowFocus: false, retry: 1 }, mutations: { retry: false } },
  });
}

/**
 * Theme, translations and server-state cache for the whole application. `queryClient` is given
 * when the start already holds answers for it (the session from the sign-in page); otherwise a
 * fresh one is made.
 */
export function AppProviders({
  i18n,
  queryClient: givenQueryClient,
  children,
}: {
  i18n: I18n;
  queryClient?: QueryClient;
  children: ReactNode;
}) {
  const [queryClient] = useState(() => givenQueryClient ?? createQueryClient());
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}
