import type { MeResponse } from '@telemedicina/shared/auth';
import { adminPathFor, isPortalUser, portalHomePath, portalPathFor } from '@telemedicina/shared/portal';

/** Where a signed-in person lands when there is no (acceptable) return path. */
export const defaultSignedInPath = '/admin';

/** The only screen a user who must enrol a second factor may open. */
export const mfaEnrollmentPath = '/admin/profile/security';

/**
 * The return path after signing in, or null when it is not acceptable. Only a same-origin path
 * inside the admin area is followed, so a crafted link (`/?returnTo=//evil.example`) cannot send
 * someone elsewhere after they typed their password: absolute URLs, protocol-relative `//host`,
 * backslashes (browsers read `/\host` as `//host`), control characters and anything that
 * normalises outside `/admin` and `/portal` are refused.
 */
export function sanitizeReturnTo(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  if (!value.startsWith('/') || value.startsWith('//') || /[\\\u0000-\u001f\u007f]/u.test(value)) {
    return null;
  }
  const base = 'https://telemedicina.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base) {
    return null;
  }
  const isInside = (area: string) => url.pathname === area || url.pathname.startsWith(`${area}/`);
  if (!isInside(defaultSignedInPath) && !isInside(portalHomePath)) {
    return null;
  }
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in address that brings the person back to `path` afterwards. */
export function signInPathFor(path: string): string {
  const returnTo = sanitizeReturnTo(path);
  return returnTo ? `/?${new URLSearchParams({ returnTo }).toString()}` : '/';
}

/**
 * Where sign-in leads a signed-in person: the second-factor enrolment when the account must enrol
 * one, else the (acceptable) return path, else the admin area.
 */
export function signedInTarget(me: MeResponse, returnTo: string | null | undefined): string {
  if (me.session.mfaEnrollmentRequired) {
    return mfaEnrollmentPath;
  }
  const path = sanitizeReturnTo(returnTo);
  // Patients live in the portal, staff in the admin area: a return path into the other one is
  // followed to its equivalent there (an old `/admin/…` link a patient kept, a portal link shared
  // with staff).
  if (isPortalUser(me.permissions)) {
    return (path && (portalPathFor(path) ?? path)) ?? portalHomePath;
  }
  return (path && (adminPathFor(path) ?? path)) ?? defaultSignedInPath;
}
