import { adminPathFor, isPortalUser } from '@telemedicina/shared/portal';
import { Navigate, useLocation } from 'react-router';
import { IdleSessionWatcher } from '../features/admin/components/IdleSessionWatcher';
import { NotificationBell } from '../features/notifications';
import { PortalLayout } from '../features/portal';
import { TimeZoneNotice } from '../features/time-zone-notice';
import { useMe } from '../lib/session';

/**
 * The patient's frame (`/portal`) with what other features add to it (composition only). Someone who
 * is not a patient (a doctor, reception, an administrator) opening a portal address is taken to the
 * same page in the admin area, which is theirs.
 */
export function PortalShell() {
  const me = useMe().data;
  const location = useLocation();
  if (me && !isPortalUser(me.permissions)) {
    return (
      <Navigate
        to={adminPathFor(`${location.pathname}${location.search}${location.hash}`) ?? '/admin'}
        replace
      />
    );
  }
  return (
    <PortalLayout
      headerActions={<NotificationBell />}
      notice={<TimeZoneNotice />}
      footer={me ? <IdleSessionWatcher session={me.session} /> : null}
    />
  );
}
