import { MantineProvider } from '@mantine/core';
import type { MeResponse } from '@telemedicina/shared/auth';
import type { i18n as I18n } from 'i18next';
import { startTransition, StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { cssVariablesResolver, theme } from '../../lib/theme';
import { SignInScreen } from './sign-in/SignInScreen';

/**
 * The signed-out start page's own chunk (see `main.tsx`): the sign-in screen with only the theme
 * and the translations around it — no router, query cache, zod or form library, which the
 * application loads when the person signs in or follows a link.
 */
export function renderSignInScreen(
  root: Root,
  i18n: I18n,
  handlers: { onSignedIn: (me: MeResponse) => void; onNavigate: (path: string) => void },
): void {
  // A transition: React renders the screen in slices, yielding to the browser between them, instead
  // of one long task (the picture the server sent stays on screen until the commit).
  startTransition(() => root.render(<SignInApp i18n={i18n} {...handlers} />));
}

/** The sign-in screen with its providers (also what the build pre-renders: `prerender.tsx`). */
export function SignInApp({
  i18n,
  onSignedIn,
  onNavigate,
}: {
  i18n: I18n;
  onSignedIn: (me: MeResponse) => void;
  onNavigate: (path: string) => void;
}) {
  return (
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <I18nextProvider i18n={i18n}>
          <SignInScreen onSignedIn={onSignedIn} onNavigate={onNavigate} />
        </I18nextProvider>
      </MantineProvider>
    </StrictMode>
  );
}
