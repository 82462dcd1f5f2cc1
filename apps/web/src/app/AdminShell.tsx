import { AdminLayout } from '../features/admin';
import { NotificationBell } from '../features/notifications';

/** The signed-in shell with the pieces other features add to its header (composition only). */
export function AdminShell() {
  return <AdminLayout headerActions={<NotificationBell />} />;
}
