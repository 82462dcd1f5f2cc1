import { startPageCookieName, type StartPage } from '@telemedicina/shared/api';
import { readCookie } from './xsrf';

/**
 * Remembers in a cookie what the signed-in start page showed (`startPageCookieName`), so the next
 * `/admin` in this browser is sent with the right first paint: the home page's frame drawn in
 * advance, or — for a clinic administrator, whose start page is the dashboard — the plain boot.
 * Written only when it changes.
 */
export function rememberStartPage(page: StartPage): void {
  if (readCookie(startPageCookieName) === page) {
    return;
  }
  document.cookie = `${startPageCookieName}=${page}; path=/; max-age=31536000; samesite=lax`;
}
