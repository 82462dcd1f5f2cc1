import en from '../../../public/assets/i18n/en.json';
import es from '../../../public/assets/i18n/es.json';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestI18n, resetUiState } from '../../test/render';
import { prerenderSignIn } from './prerender';
import { SignInApp } from './start';

function parse(html: string): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = html;
  return host.firstElementChild as HTMLElement;
}

describe('prerenderSignIn', () => {
  afterEach(() => resetUiState('es'));

  it('draws the sign-in screen in the given language, as an inert picture without test ids', async () => {
    const picture = parse(await prerenderSignIn('es', es));
    expect(picture.hasAttribute('inert')).toBe(true);
    expect(picture.dataset.prerendered).toBe('es');
    expect(picture.textContent).toContain(es.auth.headline);
    expect(picture.querySelector('[data-testid]')).toBeNull();
    expect(picture.querySelector('input[type=email]')).not.toBeNull();
    // The language switcher marks the page's language, not the store's default.
    expect(picture.querySelector('button[lang=es]')?.getAttribute('aria-pressed')).toBe('true');
    expect(picture.querySelector('button[lang=es]')?.hasAttribute('data-active')).toBe(true);
    expect(picture.querySelector('button[lang=en]')?.getAttribute('aria-pressed')).toBe('false');
    expect(picture.querySelector('button[lang=en]')?.hasAttribute('data-active')).toBe(false);

    const english = parse(await prerenderSignIn('en', en));
    expect(english.textContent).toContain(en.auth.headline);
    expect(english.querySelector('button[lang=en]')?.getAttribute('aria-pressed')).toBe('true');
  });

  it('is the markup the live screen renders (so replacing it moves nothing)', async () => {
    resetUiState('es');
    const picture = parse(await prerenderSignIn('es', es));
    const { container } = render(
      <SignInApp i18n={createTestI18n('es')} onSignedIn={() => undefined} onNavigate={() => undefined} />,
    );
    await screen.findByTestId('signin-email');
    const live = container.cloneNode(true) as HTMLElement;
    for (const element of live.querySelectorAll('[data-testid]')) {
      element.removeAttribute('data-testid');
    }
    const text = (element: Element) => element.textContent?.replace(/\s+/g, ' ').trim();
    expect(text(picture.querySelector('main')!)).toBe(text(live.querySelector('main')!));
    expect(picture.querySelectorAll('input').length).toBe(live.querySelectorAll('input').length);
  });

  it('refuses a language the product does not ship', async () => {
    await expect(prerenderSignIn('fr' as 'es', es)).rejects.toThrow('Not a shipped language');
  });
});
