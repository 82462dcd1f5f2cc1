/**
 * Every address the web app draws a page for: the routes of its router (apps/web/src/app/routes.tsx)
 * flattened to full patterns, without the catch-all not-found route. The server answers a page
 * request with the app for any address, but with 200 only when one of these matches — otherwise 404
 * (the app then shows its not-found page). `routes.test.tsx` in apps/web fails when the router and
 * this list disagree, so a new page is added in both places.
 *
 * `:name` stands for one path segment (an id, a code), as in the router.
 */
export const webRoutePatterns = [
  '/',
  '/register',
  '/verify-email',
  '/forgot-password',
  '/reset-password',
  '/accept-invitation',
  '/admin',
  '/admin/components',
  '/admin/profile',
  '/admin/profile/photo',
  '/admin/profile/security',
  '/admin/profile/record-access',
  '/admin/profile/connected-apps',
  '/admin/connected-apps/authorize/:uid',
  '/admin/apps',
  '/admin/questionnaires',
  '/admin/questionnaires/:id',
  '/admin/consent-documents',
  '/admin/consent-documents/:id',
  '/admin/outbox',
  '/admin/users',
  '/admin/users/:id',
  '/admin/roles',
  '/admin/roles/:id',
  '/admin/specialties',
  '/admin/doctors',
  '/admin/doctors/:id',
  '/admin/doctors/:id/schedule',
  '/admin/schedule',
  '/admin/agenda',
  '/admin/appointments',
  '/admin/appointments/:id',
  '/admin/appointments/:id/note',
  '/admin/visits/:appointmentId',
  '/admin/visits/:appointmentId/check',
  '/admin/waiting-room',
  '/admin/patients',
  '/admin/patients/:patientId',
  '/admin/patients/:patientId/prescriptions/new',
  '/admin/prescriptions/:id',
  '/admin/intake/:id',
  '/admin/my-record',
  '/admin/audit',
  '/admin/settings',
  '/portal',
  '/portal/doctors',
  '/portal/doctors/:id',
  '/portal/appointments',
  '/portal/appointments/:id',
  '/portal/appointments/:id/note',
  '/portal/visits/:appointmentId',
  '/portal/visits/:appointmentId/check',
  '/portal/prescriptions/:id',
  '/portal/consents',
  '/portal/consents/:documentId',
  '/portal/intake/:id',
  '/portal/my-record',
  '/portal/profile',
  '/portal/profile/photo',
  '/portal/profile/security',
  '/portal/profile/record-access',
  '/portal/profile/connected-apps',
  '/portal/connected-apps/authorize/:uid',
  '/guest',
  '/verify',
  '/verify/:code',
  '/verify-consent/:code',
  '/error-500',
] as const;

export type WebRoutePattern = (typeof webRoutePatterns)[number];

/** The patterns as segment lists, lower-cased (the router matches without regard to case). */
const patternSegments = webRoutePatterns.map((pattern) =>
  pattern
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.toLowerCase()),
);

/**
 * Whether the web app's router draws a page (other than its not-found page) for this path, matching
 * as react-router does: without regard to case, trailing slashes ignored, a `:name` segment matching
 * any one non-empty segment (percent-decoded). The query string must already be removed.
 */
export function isWebRoute(pathName: string): boolean {
  if (!pathName.startsWith('/')) {
    return false;
  }
  const trimmed = pathName.replace(/\/+$/, '');
  // An empty segment inside the path (`/admin//users`) matches no route, as in the router.
  const segments = trimmed === '' ? [] : trimmed.slice(1).split('/');
  if (segments.some((segment) => segment === '')) {
    return false;
  }
  const decoded = segments.map((segment) => decodeSegment(segment).toLowerCase());
  return patternSegments.some(
    (pattern) =>
      pattern.length === decoded.length &&
      pattern.every((part, index) => part.startsWith(':') || part === decoded[index]),
  );
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
