import { MantineProvider } from '@mantine/core';
import type { Language } from '@telemedicina/shared/i18n';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderOptions } from '@testing-library/react';
import i18next, { type i18n as I18n } from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '../../public/assets/i18n/en.json';
import es from '../../public/assets/i18n/es.json';
import { setActiveI18n } from '../lib/i18n';
import { theme } from '../lib/theme';
import { sessionState } from '../lib/session-state';
import { uiState } from '../lib/ui-state';

/** An i18next instance with both translation files loaded synchronously from disk. */
export function createTestI18n(language: Language = 'es'): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    resources: { es: { translation: es }, en: { translation: en } },
    fallbackLng: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    initAsync: false,
  });
  return instance;
}

/** Resets the shared UI state between tests. */
export function resetUiState(language: Language = 'es'): void {
  uiState.setState({
    searchText: '',
    sectionSearchText: '',
    alert: null,
    loadingCount: 0,
    permissions: [],
    language,
  });
  sessionState.setState({ isSignedIn: false, endReason: null, lastServerContactAt: Date.now() });
}

export function TestProviders({ children, i18n }: { children: ReactNode; i18n: I18n }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return (
    <MantineProvider theme={theme}>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </I18nextProvider>
    </MantineProvider>
  );
}

/** Renders with the application's providers, in Spanish unless told otherwise. */
export function renderWithProviders(
  ui: ReactElement,
  { language = 'es', ...options }: { language?: Language } & Omit<RenderOptions, 'wrapper'> = {},
) {
  const i18n = createTestI18n(language);
  setActiveI18n(i18n);
  resetUiState(language);
  return {
    i18n,
    ...render(ui, {
      wrapper: ({ children }) => <TestProviders i18n={i18n}>{children}</TestProviders>,
      ...options,
    }),
  };
}
