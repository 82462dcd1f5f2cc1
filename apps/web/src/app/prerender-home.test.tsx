import en from '../../public/assets/i18n/en.json';
import es from '../../public/assets/i18n/es.json';
import { afterEach, describe, expect, it } from 'vitest';
import { resetUiState } from '../test/render';
import { prerenderHome } from './prerender-home';

function parse(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = html;
  return host.firstElementChild as HTMLElement;
}

describe('prerenderHome', () => {
  afterEach(() => resetUiState('es'));

  it('draws the signed-in frame and the home heading in the given language, as an inert picture', async () => {
    const picture = parse(await prerenderHome('es', es));
    expect(picture.hasAttribute('inert')).toBe(true);
    expect(picture.dataset.prerendered).toBe('es');
    expect(picture.querySelector('[data-testid]')).toBeNull();
    expect(picture.querySelector('header')).not.toBeNull();
    expect(picture.querySelector('main h1')?.textContent).toBe(es.admin.dashboard.title);
    expect(picture.querySelector('main p')?.textContent).toBe(es.home.description);
    // Nothing that depends on the person: no section links, no user menu, no appointments.
    expect(picture.querySelectorAll('nav a')).toHaveLength(0);
    expect(picture.textContent).not.toContain(es.home.upcoming.title);
    // The language switcher marks the page's language.
    expect(picture.querySelector('button[lang=es]')?.getAttribute('aria-pressed')).toBe('true');
    expect(picture.querySelector('button[lang=en]')?.getAttribute('aria-pressed')).toBe('false');

    const english = parse(await prerenderHome('en', en));
    expect(english.querySelector('main h1')?.textContent).toBe(en.admin.dashboard.title);
    expect(english.querySelector('main p')?.textContent).toBe(en.home.description);
    expect(english.querySelector('button[lang=en]')?.getAttribute('aria-pressed')).toBe('true');
  });

  it('refuses a language the product does not ship', async () => {
    await expect(prerenderHome('fr' as 'es', es)).rejects.toThrow('Not a shipped language');
  });
});
