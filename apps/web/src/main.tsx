import './app/mantine-styles';
import './app/global.css';
import type { QueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { createRoot } from 'react-dom/client';
import type { MeResponse } from '@telemedicina/shared/auth';
import { isLanguage, type Language } from '@telemedicina/shared/i18n';
import {
  detectStartLanguage,
  expectedAccountLanguage,
  hasChosenLanguageThisSession,
  prefetchTranslations,
  readStoredLanguage,
  rememberAccountLanguage,
  startI18n,
} from './lib/i18n';
import { startBootUpcoming } from './features/home/api/boot-upcoming';
import { startPortalBoot } from './features/portal/api/portal-boot';
import { requestBootConfig } from './lib/config-request';
import { warmIntl } from './lib/intl-warmup';
import { getMe } from './lib/me';
import { signedInTarget } from './lib/return-to';
import { installTestHooks } from './lib/test-hooks';
import { uiState } from './lib/ui-state';

/*
 * The boot entry. Every page asks for its texts and the session (GET /me) at once, in parallel with
 * the code it needs. The signed-out start page (`/`) needs only the sign-in screen
 * (features/auth/start.tsx: React, Mantine's provider and inputs, the translations); the whole
 * application (router, query cache, every area) is downloaded only for other addresses, for a
 * visitor who is already signed in, or once the person signs in or follows a link — then it starts
 * in the same document and its router takes over at the address the sign-in moved to.
 */
const container = document.getElementById('root');
if (!container) {
  throw new Error('The page has no #root element');
}

installTestHooks();
const root = createRoot(container);
const isStartPage = window.location.pathname === '/';
/*
 * Render once the start language's texts are loaded, so no untranslated key ever flashes. The start
 * page follows specification §4 (choice, else browser language); any other page is most likely
 * signed in, so it starts with the language of the account last signed in here, when known —
 * loading the browser language's texts first and the account's after `GET /me` would put a
 * second download in the page's critical path. `applyAccountLanguage` corrects either guess.
 */
const startLanguage =
  (!isStartPage && expectedAccountLanguage()) ||
  detectStartLanguage(readStoredLanguage(), navigator.language);
const i18nReady = startI18n(startLanguage);
const session = getMe();
// Handled where it is used; this keeps a failed early request from being reported as unhandled.
session.catch(() => undefined);
// A wrong guess (first page load in this browser, or the account's language changed elsewhere):
// the account's texts are requested as soon as the session is known, beside the guessed file,
// not after it (`applyAccountLanguage` then switches to a file already on its way).
void session.then(
  (me) => {
    const language = accountLanguageToApply(me, startLanguage);
    if (language) {
      prefetchTranslations(language);
    }
  },
  () => undefined,
);

/**
 * The account's language when the page must switch to it from `current`: signed in, a supported
 * language, not the one already shown, and not overridden by a choice made with the switcher in
 * this browser session (`useSessionSync` applies the same rule later). Null otherwise.
 */
function accountLanguageToApply(me: MeResponse | null, current: string): Language | null {
  const language = me?.user.language;
  return isLanguage(language) && language !== current && !hasChosenLanguageThisSession() ? language : null;
}

function startApp(i18n: I18n, me: MeResponse | null | Promise<MeResponse | null>): Promise<void> {
  return import('./app/start-app').then((app) => app.startApp(root, i18n, me));
}

/** The patient's home, whose answers are asked for as the page boots (`startPortalBoot`). */
const isPortalHome = (pathname: string) => /^\/portal\/?$/i.test(pathname);

/**
 * A signed-in person sees the interface in their account's language (unless they picked one with
 * the switcher in this browser session; `useSessionSync` applies the same rule later). Switching
 * here, while the code downloads, loads that language's texts before the first render instead of
 * painting the page in the browser's language and then again in the account's.
 */
async function applyAccountLanguage(i18n: I18n, me: MeResponse | null): Promise<void> {
  if (!me) {
    // Signed out after all: the start page's language, not the guessed account's.
    const language = detectStartLanguage(readStoredLanguage(), navigator.language);
    if (language !== i18n.language && !hasChosenLanguageThisSession()) {
      await i18n.changeLanguage(language);
      uiState.getState().setLanguage(language);
    }
    return;
  }
  rememberAccountLanguage(me.user.language);
  const language = accountLanguageToApply(me, i18n.language);
  if (!language) {
    return;
  }
  await i18n.changeLanguage(language);
  uiState.getState().setLanguage(language);
}

if (isStartPage) {
  const returnTo = new URLSearchParams(window.location.search).get('returnTo');
  const signInScreen = import('./features/auth/start');
  void Promise.all([i18nReady, session.catch(() => null)]).then(async ([i18n, me]) => {
    if (me) {
      // Already signed in: straight on, as the sign-in page does.
      window.history.replaceState(null, '', signedInTarget(me, returnTo));
      await applyAccountLanguage(i18n, me);
      await startApp(i18n, me);
      return;
    }
    (await signInScreen).renderSignInScreen(root, i18n, {
      onSignedIn: (signedIn) => {
        rememberAccountLanguage(signedIn.user.language);
        window.history.replaceState(null, '', signedInTarget(signedIn, returnTo));
        void startApp(i18n, signedIn);
      },
      onNavigate: (path) => {
        window.history.pushState(null, '', path);
        void startApp(i18n, null);
      },
    });
  });
} else {
  // The clinic's settings, asked beside the session: the frame's first render then has them.
  const config = requestBootConfig();
  config.catch(() => undefined);
  // While the page waits for the network, a worker loads the browser's locale data.
  warmIntl(startLanguage);
  // The application's chunk downloads meanwhile (rendering waits). Asked for in the next task:
  // adding the download hints for it and the route's chunks is a few dozen elements, which would
  // otherwise lengthen this one (the modules' evaluation, already the longest of the boot).
  const app = nextTask().then(() => {
    const loading = import('./app/start-app');
    preloadRouteChunks(window.location.pathname);
    return loading;
  });
  session.then(
    (me) => {
      if (me && /^\/admin\/?$/.test(window.location.pathname)) {
        // The home page's list, asked now rather than once the page has rendered.
        startBootUpcoming(me);
      }
      if (me && isPortalHome(window.location.pathname)) {
        // The patient's home: its visits, prescriptions, summaries and next doctor, likewise.
        startPortalBoot(me);
      }
    },
    () => undefined,
  );
  // The session's answer (the application then renders it at once), or null when the request
  // failed: the application then gets the request itself and asks again the usual way.
  const answered = session.then(
    (me) => ({ me }),
    () => null,
  );
  void Promise.all([i18nReady, answered]).then(async ([i18n, answer]) => {
    await applyAccountLanguage(i18n, answer?.me ?? null);
    const application = await app;
    // The application's modules ran in the task that loaded them; the first render starts in
    // the next one, so the two do not add up to one long task that keeps the page from answering.
    await nextTask();
    // On the patient's home the first render waits for the answers asked as the page booted, so
    // the page is drawn once with them (the pre-rendered frame and placeholder show meanwhile).
    const seedPortal = isPortalHome(window.location.pathname)
      ? (queryClient: QueryClient) =>
          import('./features/portal/api/portal-seed').then((seed) => seed.seedPortalBoot(queryClient))
      : undefined;
    await application.startApp(root, i18n, answer ? answer.me : session, config, seedPortal);
  });
}

function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Starts downloading the chunks the router will ask for at this address at once, beside the
 * application's: otherwise each waits for the previous one to arrive and run (application → router
 * matches → admin frame → page), one network round trip per level. The router's own `import()`
 * of the same module gets this download; a failure is reported there.
 */
function preloadRouteChunks(pathname: string): void {
  if (/^\/portal(\/|$)/i.test(pathname)) {
    // The patient's portal: its light frame and its home, nothing of the admin area (a patient never
    // sees it, so a patient's phone does not download it).
    void import('./app/PortalShell').catch(() => undefined);
    if (isPortalHome(pathname)) {
      void import('./features/portal').catch(() => undefined);
      void import('./features/portal/api/portal-seed').catch(() => undefined);
    }
    return;
  }
  if (!/^\/admin(\/|$)/.test(pathname)) {
    return;
  }
  void import('./app/AdminShell').catch(() => undefined);
  if (/^\/admin\/?$/.test(pathname)) {
    void import('./app/HomeRoute').catch(() => undefined);
    // The home page of everyone but clinic admins (theirs, the clinic dashboard, is far larger and
    // is left to the route): its appointments request then starts as soon as the page renders.
    void import('./features/home').catch(() => undefined);
  }
}
