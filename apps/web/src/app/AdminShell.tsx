import { isPortalUser, portalPathFor } from '@telemedicina/shared/portal';
import { Navigate, useLocation } from 'react-router';
import { AdminLayout } from '../features/admin';
import { NotificationBell } from '../features/notifications';
import { TimeZoneNotice } from '../features/time-zone-notice';
import { useMe } from '../lib/session';

/**
 * The signed-in shell with the pieces other features add to its header (composition only). Patients
 * live in the portal: an admin-area address a patient follows (an old link or email) takes them to
 * the same page there, query string kept (not while they must still set up a second factor, which
 * happens here).
 */
export function AdminShell() {
  const me = useMe().data;
  const location = useLocation();
  if (me && !me.session.mfaEnrollmentRequired && isPortalUser(me.permissions)) {
    const target = portalPathFor(`${location.pathname}${location.search}${location.hash}`);
    return <Navigate to={target ?? '/portal'} replace />;
  }
  return <AdminLayout headerActions={<NotificationBell />} notice={<TimeZoneNotice />} />;
}
