import { systemRoles } from './permission-catalogue.js';

/**
 * The patient portal: patients live at `/portal/…`, staff (doctors, reception,
 * administrators) in the admin frame at `/admin/…`. Both sides use these helpers: the web app to
 * pick the frame and redirect old links, the server to link each recipient of an email or a
 * notification to the address their frame serves.
 */

/** The portal's home. */
export const portalHomePath = '/portal';

/** The portal's pages below its home, as router patterns (`:name` is one segment). */
export const portalPagePatterns = [
  'doctors',
  'doctors/:id',
  'appointments',
  'appointments/:id',
  'appointments/:id/note',
  'visits/:appointmentId',
  'visits/:appointmentId/check',
  'prescriptions/:id',
  'consents',
  'consents/:documentId',
  'intake/:id',
  'my-record',
  'profile',
  'profile/photo',
  'profile/security',
  'profile/record-access',
  'profile/connected-apps',
  'connected-apps/authorize/:uid',
] as const;

const patientPermissions: ReadonlySet<string> = new Set(systemRoles.patient.permissions);

/**
 * Whether a person with these permissions belongs in the portal: they hold some permission and
 * none beyond the patient role's (a doctor, reception or an administrator — or a custom role that
 * grants anything more — keeps the admin frame).
 */
export function isPortalUser(permissions: readonly string[]): boolean {
  return permissions.length > 0 && permissions.every((permission) => patientPermissions.has(permission));
}

const patternSegments = portalPagePatterns.map((pattern) => pattern.split('/'));

/** The part of `path` after `prefix` (`/admin`, `/portal`), or null when it is not under it. */
function restAfter(path: string, prefix: string): string[] | null {
  const lower = path.toLowerCase();
  if (lower !== prefix && lower !== `${prefix}/` && !lower.startsWith(`${prefix}/`)) {
    return null;
  }
  return path
    .slice(prefix.length)
    .split('/')
    .filter((segment) => segment !== '');
}

function isPortalPage(segments: readonly string[]): boolean {
  return patternSegments.some(
    (pattern) =>
      pattern.length === segments.length &&
      pattern.every((part, index) => part.startsWith(':') || part === segments[index]!.toLowerCase()),
  );
}

/**
 * The portal's address for an admin-area path a patient followed (an old link, an email sent
 * before the portal): the same page under `/portal` when the portal has it, else the portal's
 * home. The query string and fragment, when given with the path, are kept. Null when the path is
 * not in the admin area.
 */
export function portalPathFor(adminPath: string): string | null {
  const [pathName = '', suffix = ''] = splitSuffix(adminPath);
  const rest = restAfter(pathName, '/admin');
  if (rest === null) {
    return null;
  }
  if (rest.length === 0 || !isPortalPage(rest)) {
    return `${portalHomePath}${rest.length === 0 ? suffix : ''}`;
  }
  return `${portalHomePath}/${rest.join('/')}${suffix}`;
}

/**
 * The admin area's address for a portal path someone who is not a patient opened (staff sharing a
 * link): the same page under `/admin`. Null when the path is not in the portal.
 */
export function adminPathFor(portalPath: string): string | null {
  const [pathName = '', suffix = ''] = splitSuffix(portalPath);
  const rest = restAfter(pathName, portalHomePath);
  if (rest === null) {
    return null;
  }
  return `/admin${rest.length === 0 ? '' : `/${rest.join('/')}`}${suffix}`;
}

/**
 * A web address (`/admin/…`) for this reader: the portal's equivalent for a patient, unchanged for
 * staff. Used by the server to link emails and notifications.
 */
export function webPathForReader(adminPath: string, isPatient: boolean): string {
  return isPatient ? (portalPathFor(adminPath) ?? adminPath) : adminPath;
}

function splitSuffix(path: string): [string, string] {
  const index = path.search(/[?#]/);
  return index === -1 ? [path, ''] : [path.slice(0, index), path.slice(index)];
}
