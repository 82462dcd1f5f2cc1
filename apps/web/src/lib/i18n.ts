import { isLanguage, pickLanguage, supportedLanguages, type Language } from '@telemedicina/shared/i18n';
import i18next, { type BackendModule, type i18n as I18n, type ParseKeys, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { uiState } from './ui-state';

/** localStorage key of the language the person chose with the switcher. */
export const languageStorageKey = 'telemedicina.language';

/** Cookie mirroring the switcher's choice for the server (see `chooseLanguage`). */
export const languageCookieName = 'tm_language';

/** sessionStorage key saying the person picked a language in this browser session. */
export const languageChosenInSessionKey = 'telemedicina.languageChosen';

/**
 * localStorage key of the language of the account last signed in on this browser: a signed-in page
 * starts with that language's texts instead of loading the browser language's first and the
 * account's after `GET /me` (see `expectedAccountLanguage`). Not a choice: the start page (`/`,
 * signed out) never reads it.
 */
export const accountLanguageStorageKey = 'telemedicina.accountLanguage';

/** Address of a language's translation file (specification §7: GET /assets/i18n/{lang}.json). */
export function translationsUrl(language: string): string {
  return new URL(
    `${import.meta.env.BASE_URL}assets/i18n/${encodeURIComponent(language)}.json`,
    document.baseURI,
  ).href;
}

/** A translation file that could not be read; `retry` when trying again may help (network, 5xx, 429). */
class TranslationsLoadError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
  }
}

/**
 * The i18next backend: reads a language's file with `fetch` from `translationsUrl`. It is all the
 * application used of i18next-http-backend, without its weight in the first download. A network
 * failure or a 5xx/429 answer asks i18next to try again (it retries a few times, waiting between).
 */
export const translationsBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    takePrefetched(language)
      .then(
        (response) =>
          response.ok
            ? (response.json() as Promise<ResourceKey>)
            : Promise.reject(
                new TranslationsLoadError(
                  `Loading ${response.url} failed (HTTP ${response.status})`,
                  response.status >= 500 || response.status === 429,
                ),
              ),
        (cause: unknown) =>
          Promise.reject(
            new TranslationsLoadError(cause instanceof Error ? cause.message : 'Network error', true),
          ),
      )
      .then(
        (resources) => callback(null, resources),
        (error: unknown) =>
          error instanceof TranslationsLoadError
            ? callback(error, error.retry)
            : callback(error instanceof Error ? error : new Error(String(error)), false),
      );
  },
};

/** Translation files requested ahead of i18next (`prefetchTranslations`), each read once. */
const prefetched = new Map<string, Promise<Response>>();

function requestTranslations(language: string): Promise<Response> {
  // A plain same-origin request: the start page's `<link rel="preload" as="fetch" crossorigin>`
  // for the same file (added by the server) is then reused instead of downloaded again.
  return fetch(translationsUrl(language), { credentials: 'same-origin' });
}

function takePrefetched(language: string): Promise<Response> {
  const early = prefetched.get(language);
  prefetched.delete(language);
  return early ?? requestTranslations(language);
}

/**
 * Starts downloading a language's file now, before i18next asks for it: the boot learns the
 * account's language from `GET /me` while the guessed language's file may still be on its way, and
 * the switch to the account's language then finds its file already requested instead of starting a
 * second download in the page's critical path. The next `read` of that language takes the answer.
 */
export function prefetchTranslations(language: string): void {
  if (!prefetched.has(language)) {
    const request = requestTranslations(language);
    // Handled by the `read` that takes it; this keeps an unread failure from being reported.
    request.catch(() => undefined);
    prefetched.set(language, request);
  }
}

/** The language chosen earlier with the switcher, if any and still supported. */
export function readStoredLanguage(
  storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage(),
): Language | null {
  try {
    const stored = storage?.getItem(languageStorageKey);
    return isLanguage(stored) ? stored : null;
  } catch {
    return null;
  }
}

/**
 * The start language: a choice persisted by the switcher wins; otherwise the browser's language
 * when it is en or es (regional variants count), otherwise en — specification §4.
 */
export function detectStartLanguage(stored: Language | null, browserLanguage: string | undefined): Language {
  return stored ?? pickLanguage(browserLanguage);
}

/** Remembers the signed-in account's language for the next page load (see `accountLanguageStorageKey`). */
export function rememberAccountLanguage(language: unknown): void {
  if (!isLanguage(language)) {
    return;
  }
  try {
    safeLocalStorage()?.setItem(accountLanguageStorageKey, language);
  } catch {
    // Private mode or storage full: the next load starts in the usual language, then switches.
  }
}

/**
 * The language a signed-in page will most likely show: the account's language remembered from the
 * last session on this browser, unless the person picked one with the switcher in this browser
 * session (then that choice stays, as `useSessionSync` and the boot keep it). Null when unknown.
 */
export function expectedAccountLanguage(
  storage: Pick<Storage, 'getItem'> | undefined = safeLocalStorage(),
): Language | null {
  if (hasChosenLanguageThisSession()) {
    return null;
  }
  try {
    const remembered = storage?.getItem(accountLanguageStorageKey);
    return isLanguage(remembered) ? remembered : null;
  } catch {
    return null;
  }
}

/**
 * The person picks a language with the switcher: it becomes the shared current language and is
 * remembered for the next visit. Only an explicit choice is persisted, so someone who never picks
 * keeps following the browser.
 */
export function chooseLanguage(language: Language): void {
  try {
    safeLocalStorage()?.setItem(languageStorageKey, language);
  } catch {
    // Private mode or storage full: the choice still applies to this visit.
  }
  // Mirrored for the server, which hints the start page's translations file to the browser
  // (apps/server/src/http/page-hints.ts); the app itself reads the stored choice.
  document.cookie = `${languageCookieName}=${language}; path=/; max-age=31536000; samesite=lax`;
  try {
    sessionStorage.setItem(languageChosenInSessionKey, '1');
  } catch {
    // No session storage: the account's language will apply at sign-in.
  }
  uiState.getState().setLanguage(language);
}

/**
 * True when the person picked a language with the switcher in this browser session; then the
 * language saved in their account does not override it when they sign in.
 */
export function hasChosenLanguageThisSession(): boolean {
  try {
    return sessionStorage.getItem(languageChosenInSessionKey) === '1';
  } catch {
    return false;
  }
}

/** Sets `<html lang>` so assistive technology and the browser read the page in the right language. */
export function applyDocumentLanguage(language: Language): void {
  document.documentElement.lang = language;
}

let unbindStarted: (() => void) | null = null;

/**
 * Creates and starts the i18next instance: loads the start language's file over HTTP, puts the
 * language in the shared UI state, and from then on follows that state — the store is the single
 * place the current language lives; i18next and `<html lang>` are kept in step with it. The start
 * language is `detectStartLanguage`'s unless the caller passes one (the boot passes the account's
 * expected language on signed-in pages).
 */
export async function startI18n(
  language: Language = detectStartLanguage(readStoredLanguage(), navigator.language),
): Promise<I18n> {
  const instance = i18next.createInstance();
  await instance
    .use(translationsBackend)
    .use(initReactI18next)
    .init({
      lng: language,
      supportedLngs: [...supportedLanguages],
      // Both files hold every key (a unit test checks it), so no fallback file is ever needed.
      fallbackLng: false,
      load: 'languageOnly',
      interpolation: { escapeValue: false },
      react: { useSuspense: false },
      // The server answers the translation files with `Cache-Control: no-cache`, so a new release is
      // picked up; `translationsBackend` reads them.
    });
  // One application instance follows the shared language; starting again replaces it.
  unbindStarted?.();
  setActiveI18n(instance);
  uiState.getState().setLanguage(language);
  applyDocumentLanguage(language);
  unbindStarted = bindLanguageState(instance);
  return instance;
}

/**
 * Keeps i18next following the shared language, and `<html lang>` following the language whose
 * texts are actually on screen (set once its file has loaded). Returns the unsubscribe function.
 */
export function bindLanguageState(instance: I18n): () => void {
  const handleLanguageChanged = (loaded: string) => {
    if (isLanguage(loaded)) {
      applyDocumentLanguage(loaded);
    }
  };
  instance.on('languageChanged', handleLanguageChanged);
  const unsubscribe = uiState.subscribe((state, previous) => {
    if (state.language !== previous.language && state.language !== instance.language) {
      void instance.changeLanguage(state.language);
    }
  });
  return () => {
    unsubscribe();
    instance.off('languageChanged', handleLanguageChanged);
  };
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

let activeInstance: I18n | null = null;

/** Registers the instance `translate` uses (done by `startI18n`; tests pass their own). */
export function setActiveI18n(instance: I18n | null): void {
  activeInstance = instance;
}

/** Translates outside React (API client, uploader core). Returns the key when no instance is active. */
export function translate(key: ParseKeys, options?: Record<string, unknown>): string {
  if (!activeInstance) {
    return key;
  }
  const text: unknown = activeInstance.t(key, options ?? {});
  return typeof text === 'string' ? text : key;
}
