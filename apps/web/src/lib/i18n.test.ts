import en from '../../public/assets/i18n/en.json';
import es from '../../public/assets/i18n/es.json';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendJson, startTestServer } from '../test/http-server';
import { createTestI18n, resetUiState } from '../test/render';
import {
  bindLanguageState,
  accountLanguageStorageKey,
  chooseLanguage,
  detectStartLanguage,
  expectedAccountLanguage,
  languageChosenInSessionKey,
  languageStorageKey,
  readStoredLanguage,
  rememberAccountLanguage,
  prefetchTranslations,
  startI18n,
  translate,
  translationsBackend,
} from './i18n';
import { uiState } from './ui-state';

describe('detectStartLanguage', () => {
  it.each([
    [null, 'es-ES', 'es'],
    [null, 'es-MX', 'es'],
    [null, 'es', 'es'],
    [null, 'en-US', 'en'],
    [null, 'de', 'en'],
    [null, 'pt-BR', 'en'],
    [null, undefined, 'en'],
    ['en', 'es-ES', 'en'],
    ['es', 'de-DE', 'es'],
  ] as const)('stored %s, browser %s → %s', (stored, browser, expected) => {
    expect(detectStartLanguage(stored, browser)).toBe(expected);
  });
});

describe('readStoredLanguage', () => {
  it('accepts only shipped languages', () => {
    expect(readStoredLanguage({ getItem: () => 'en' })).toBe('en');
    expect(readStoredLanguage({ getItem: () => 'fr' })).toBeNull();
    expect(readStoredLanguage({ getItem: () => null })).toBeNull();
    expect(
      readStoredLanguage({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBeNull();
  });
});

describe('the remembered account language', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('is what a signed-in page expects, unless a language was picked in this browser session', () => {
    expect(expectedAccountLanguage()).toBeNull();
    rememberAccountLanguage('es');
    expect(localStorage.getItem(accountLanguageStorageKey)).toBe('es');
    expect(expectedAccountLanguage()).toBe('es');
    rememberAccountLanguage('fr');
    expect(expectedAccountLanguage()).toBe('es');
    sessionStorage.setItem(languageChosenInSessionKey, '1');
    expect(expectedAccountLanguage()).toBeNull();
  });

  it('ignores what is not a shipped language, and storage that fails', () => {
    expect(expectedAccountLanguage({ getItem: () => 'de' })).toBeNull();
    expect(
      expectedAccountLanguage({
        getItem: () => {
          throw new Error('denied');
        },
      }),
    ).toBeNull();
  });

  it('is not the start page choice: the switcher still decides there', () => {
    rememberAccountLanguage('es');
    expect(readStoredLanguage()).toBeNull();
  });
});

describe('chooseLanguage and the shared language', () => {
  beforeEach(() => resetUiState('es'));

  it('stores the choice, updates the shared state, switches i18next and <html lang>', async () => {
    const i18n = createTestI18n('es');
    const unbind = bindLanguageState(i18n);
    chooseLanguage('en');
    expect(localStorage.getItem(languageStorageKey)).toBe('en');
    // Mirrored for the server's hint of the start page's translations.
    expect(document.cookie).toContain('tm_language=en');
    expect(uiState.getState().language).toBe('en');
    await vi.waitFor(() => expect(i18n.language).toBe('en'));
    expect(document.documentElement.lang).toBe('en');
    expect(i18n.t('errors.notFound.title')).toBe('Site not found');
    chooseLanguage('es');
    await vi.waitFor(() => expect(document.documentElement.lang).toBe('es'));
    expect(i18n.t('errors.notFound.title')).toBe('Sitio no encontrado');
    unbind();
  });
});

describe('startI18n against a real HTTP server', () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  const fetched: string[] = [];

  beforeAll(async () => {
    server = await startTestServer((request, response) => {
      fetched.push(request.url);
      if (request.url === '/assets/i18n/busy.json') {
        response.writeHead(503).end();
        return;
      }
      const match = /^\/assets\/i18n\/(en|es)\.json$/.exec(request.url);
      if (!match) {
        response.writeHead(404).end();
        return;
      }
      sendJson(response, 200, match[1] === 'es' ? es : en);
    });
    jsdom.reconfigure({ url: `${server.origin}/` });
  });

  afterAll(async () => {
    await server.close();
  });

  beforeEach(() => {
    // Keep the current language: changing it here would make the previous test's instance load a file.
    resetUiState(uiState.getState().language);
    fetched.length = 0;
  });

  const withBrowserLanguage = (language: string) =>
    vi.spyOn(navigator, 'language', 'get').mockReturnValue(language);

  it('starts in Spanish for an es-ES browser, loading /assets/i18n/es.json', async () => {
    withBrowserLanguage('es-ES');
    const i18n = await startI18n();
    expect(fetched).toEqual(['/assets/i18n/es.json']);
    expect(i18n.language).toBe('es');
    expect(uiState.getState().language).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    expect(translate('errors.server.title')).toBe('Error de servidor');
  });

  it('starts in the language it is given (a signed-in page: the account language), loading only that file', async () => {
    withBrowserLanguage('en-US');
    const i18n = await startI18n('es');
    expect(fetched).toEqual(['/assets/i18n/es.json']);
    expect(i18n.language).toBe('es');
    expect(uiState.getState().language).toBe('es');
    expect(document.documentElement.lang).toBe('es');
  });

  it('starts in English for a German browser', async () => {
    withBrowserLanguage('de-DE');
    const i18n = await startI18n();
    expect(fetched).toEqual(['/assets/i18n/en.json']);
    expect(i18n.t('errors.server.action')).toBe('Try again');
    expect(document.documentElement.lang).toBe('en');
  });

  it('prefers the language chosen earlier over the browser language, and loads the other file on switch', async () => {
    withBrowserLanguage('es-MX');
    localStorage.setItem(languageStorageKey, 'en');
    const i18n = await startI18n();
    expect(i18n.language).toBe('en');
    chooseLanguage('es');
    await vi.waitFor(() => expect(i18n.language).toBe('es'));
    expect(fetched).toEqual(['/assets/i18n/en.json', '/assets/i18n/es.json']);
    expect(i18n.t('common.ok')).toBe('Aceptar');
  });

  it('switches to a language whose file was prefetched while the first loaded, without a second request for it', async () => {
    withBrowserLanguage('en-US');
    const starting = startI18n();
    prefetchTranslations('es');
    const i18n = await starting;
    // Both requested at once (in either order).
    expect([...fetched].sort()).toEqual(['/assets/i18n/en.json', '/assets/i18n/es.json']);
    await i18n.changeLanguage('es');
    expect(i18n.t('common.ok')).toBe('Aceptar');
    expect(fetched).toHaveLength(2);
    // The prefetched answer is read once; a later read of the same language asks the server again.
    expect(await read('es')).toEqual([null, es]);
    expect(fetched).toHaveLength(3);
  });

  const read = (language: string) =>
    new Promise<[unknown, unknown]>((resolve) => {
      translationsBackend.read(language, 'translation', (error, data) => resolve([error, data]));
    });

  it('reads a file with fetch, asking i18next to try again only when that may help', async () => {
    expect(await read('es')).toEqual([null, es]);
    const [busy, retryBusy] = await read('busy');
    expect(busy).toBeInstanceOf(Error);
    expect(String(busy)).toContain('503');
    expect(retryBusy).toBe(true);
    const [missing, retryMissing] = await read('fr');
    expect(missing).toBeInstanceOf(Error);
    expect(retryMissing).toBe(false);
    vi.spyOn(globalThis, 'fetch').mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const [offline, retryOffline] = await read('en');
    expect(String(offline)).toContain('Failed to fetch');
    expect(retryOffline).toBe(true);
    expect(fetched).toEqual(['/assets/i18n/es.json', '/assets/i18n/busy.json', '/assets/i18n/fr.json']);
  });
});
