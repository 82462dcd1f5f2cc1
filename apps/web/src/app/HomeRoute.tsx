import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { hasAnyPermission } from '@telemedicina/shared';
import { useMe } from '../lib/session';
import { usePermissions } from '../lib/ui-state';

const ClinicDashboard = lazy(async () => ({
  default: (await import('../features/admin-dashboard')).AdminDashboardPage,
}));
const AccessDashboard = lazy(async () => ({ default: (await import('../features/admin')).DashboardPage }));

/**
 * The admin area's start page (`/admin`): the clinic dashboard for users with `dashboard.admin`,
 * the server status and access overview for everyone else. Each loads in its own chunk.
 */
export function HomeRoute() {
  // The session's own list first: the shared permission state is filled an effect later.
  const sharedPermissions = usePermissions();
  const permissions = useMe().data?.permissions ?? sharedPermissions;
  const isAdmin = hasAnyPermission(permissions, ['dashboard.admin']);
  return (
    <Suspense
      fallback={
        <Center mih={240}>
          <Loader />
        </Center>
      }
    >
      {isAdmin ? <ClinicDashboard /> : <AccessDashboard />}
    </Suspense>
  );
}
