import { startPageCookieName } from '@telemedicina/shared/api';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberStartPage } from './start-page';
import { readCookie } from './xsrf';

describe('rememberStartPage', () => {
  afterEach(() => {
    document.cookie = `${startPageCookieName}=; path=/; max-age=0`;
    vi.restoreAllMocks();
  });

  it('keeps what the start page showed in a cookie the server reads, and rewrites it only on a change', () => {
    rememberStartPage('dashboard');
    expect(readCookie(startPageCookieName)).toBe('dashboard');
    const setter = vi.spyOn(document, 'cookie', 'set');
    rememberStartPage('dashboard');
    expect(setter).not.toHaveBeenCalled();
    rememberStartPage('home');
    expect(setter).toHaveBeenCalledWith(
      `${startPageCookieName}=home; path=/; max-age=31536000; samesite=lax`,
    );
    setter.mockRestore();
    expect(readCookie(startPageCookieName)).toBe('home');
  });
});
