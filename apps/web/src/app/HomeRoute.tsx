import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { hasAnyPermission } from '@telemedicina/shared';
import { useMe } from '../lib/session';
import { usePermissions } from '../lib/ui-state';
import { navigationItems } from '../features/admin/navigation';
import { isHomeLink } from '../features/home/links';

const ClinicDashboard = lazy(async () => ({
  default: (await import('../features/admin-dashboard')).AdminDashboardPage,
}));
const HomePage = lazy(async () => ({ default: (await import('../features/home')).HomePage }));

/**
 * The admin area's start page (`/admin`): the clinic dashboard for users with `dashboard.admin`;
 * for everyone else the home page (next appointments, shortcuts to the sections the side
 * navigation offers them). Each loads in its own chunk.
 */
export function HomeRoute() {
  // The session's own list first: the shared permission state is filled an effect later.
  const sharedPermissions = usePermissions();
  const permissions = useMe().data?.permissions ?? sharedPermissions;
  const isAdmin = hasAnyPermission(permissions, ['dashboard.admin']);
  const links = navigationItems
    .filter((item) => !item.anyOf || hasAnyPermission(permissions, item.anyOf))
    .filter(isHomeLink);
  return (
    <Suspense
      fallback={
        <Center mih={240}>
          <Loader />
        </Center>
      }
    >
      {isAdmin ? (
        <ClinicDashboard />
      ) : (
        <HomePage
          links={links}
          canBook={hasAnyPermission(permissions, ['appointments.book.self'])}
          showAppointments={hasAnyPermission(permissions, ['appointments.read.own', 'appointments.read.any'])}
        />
      )}
    </Suspense>
  );
}
