import { AdminLayout } from '../features/admin';
import { NotificationBell } from '../features/notifications';
import { TimeZoneNotice } from '../features/time-zone-notice';

/** The signed-in shell with the pieces other features add to its header (composition only). */
export function AdminShell() {
  return <AdminLayout headerActions={<NotificationBell />} notice={<TimeZoneNotice />} />;
}
