/*
 * What the authorization server's own answers carry and show, outside the web app: the security
 * headers of every /oauth answer (oidc-provider writes to the raw response, past the app's
 * headers hook) and the page a person sees when an app's request cannot be answered by sending them
 * back to the app (an unknown app, a return address the app never registered, an expired request),
 * in their language.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Language } from '@telemedicina/shared/i18n';
import { readCookie } from '../../http/cookies.js';
import { languageCookieName, pageLanguage } from '../../http/page-hints.js';
import { t } from '../../text/catalogue.js';

/**
 * The /oauth answers' own policy: nothing loads but inline styles; oidc-provider adds the hash of
 * the one inline script it writes (the form_post auto-submit) to `script-src` itself. A form posts
 * only to this origin or to the app's registered return address, which oidc-provider has checked,
 * so `form-action` allows web addresses.
 */
const oauthHeaders: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self' https: http:; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
};

/** Puts the /oauth security headers on the raw response (and any the app's hooks already chose). */
export function applyOauthHeaders(res: ServerResponse, fromApp: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(fromApp)) {
    // The app's page policy would block the form_post answer; the /oauth one replaces it.
    if (value !== undefined && !(name.toLowerCase() in oauthHeaders)) {
      res.setHeader(name, value as string | number | readonly string[]);
    }
  }
  for (const [name, value] of Object.entries(oauthHeaders)) {
    res.setHeader(name, value);
  }
}

/** The language of a person reaching /oauth in a browser: the app's language cookie, else the browser's. */
export function oauthPageLanguage(req: Pick<IncomingMessage, 'headers'>): Language {
  return pageLanguage(readCookie(req.headers.cookie, languageCookieName), req.headers['accept-language']);
}

const redirectProblems = new Set(['invalid_redirect_uri', 'redirect_uri_mismatch']);
const clientProblems = new Set(['invalid_client', 'invalid_client_metadata', 'unauthorized_client']);
const expiredProblems = new Set(['invalid_grant', 'session_not_found', 'interaction_expired']);

/**
 * The page for an authorization request that cannot go back to the app: what happened in plain
 * words, what the person can do, and the technical code small, for the app's developer or support.
 */
export function oauthErrorPage(language: Language, error: string, description: string | undefined): string {
  const reason = redirectProblems.has(error)
    ? t(language, 'smartPages.redirect')
    : clientProblems.has(error)
      ? t(language, 'smartPages.client')
      : expiredProblems.has(error)
        ? t(language, 'smartPages.expired')
        : t(language, 'smartPages.generic');
  const title = t(language, 'smartPages.title');
  const detail = `${error}${description === undefined || description === '' ? '' : `: ${description}`}`;
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8f9fa;color:#212529;line-height:1.5}
main{max-width:32rem;margin:10vh auto;padding:1.5rem;background:#fff;border:1px solid #dee2e6;border-radius:.5rem}
h1{font-size:1.35rem;margin:0 0 .75rem}
p{margin:0 0 1rem}
a{color:#1864ab;font-weight:600}
small{display:block;margin-top:1.5rem;color:#495057;word-break:break-word}
@media (max-width:40rem){main{margin:1rem;padding:1.25rem}}
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(reason)}</p>
<p>${escapeHtml(t(language, 'smartPages.next'))}</p>
<p><a href="/">${escapeHtml(t(language, 'smartPages.home'))}</a></p>
<small>${escapeHtml(t(language, 'smartPages.technical', { detail }))}</small>
</main>
</body>
</html>`;
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/gu, (char) => `&#${char.charCodeAt(0)};`);
}
