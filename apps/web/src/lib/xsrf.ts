import { xsrfCookieName, xsrfHeaderName } from '@telemedicina/shared/api';

/** Reads one cookie by name from `document.cookie` (or the given cookie string). */
export function readCookie(name: string, cookieString: string = document.cookie): string | null {
  for (const part of cookieString.split(';')) {
    const separator = part.indexOf('=');
    if (separator === -1) {
      continue;
    }
    if (part.slice(0, separator).trim() === name) {
      const value = part.slice(separator + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return null;
}

/**
 * True for URLs without a scheme or host ("/api/v1/x", "files", "?q"): the specification sends the
 * token only to relative URLs, so it never leaks to another origin.
 */
export function isRelativeUrl(url: string): boolean {
  const trimmed = url.trim().toLowerCase();
  return !(/^[a-z][a-z0-9+.-]*:/.test(trimmed) || trimmed.startsWith('//'));
}

/**
 * The header to add to a request (specification §7): requests other than GET and HEAD to relative
 * URLs carry `X-XSRF-TOKEN` copied from the `XSRF-TOKEN` cookie. Empty when not applicable or when
 * the cookie is absent.
 */
export function xsrfHeaders(method: string, url: string, cookieString?: string): Record<string, string> {
  const upper = method.toUpperCase();
  if (upper === 'GET' || upper === 'HEAD' || !isRelativeUrl(url)) {
    return {};
  }
  const token = readCookie(xsrfCookieName, cookieString ?? document.cookie);
  return token ? { [xsrfHeaderName]: token } : {};
}
