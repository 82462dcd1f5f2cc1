import { Center, Loader } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { hasAnyPermission } from '@telemedicina/shared/permission-check';
import { useMe } from '../lib/session';
import { rememberStartPage } from '../lib/start-page';
import { usePermissions } from '../lib/ui-state';
import { navigationItems } from '../features/admin/navigation';
import { isHomeLink } from '../features/home/links';
import type * as HomeFeature from '../features/home';

type HomeModule = typeof HomeFeature;

const ClinicDashboard = lazy(async () => ({
  default: (await import('../features/admin-dashboard')).AdminDashboardPage,
}));
const ReceptionDay = lazy(async () => ({
  default: (await import('../features/agenda')).ReceptionDayPage,
}));
let homeModule: HomeModule | undefined;

/**
 * Loads the home page's module; the route's `lazy` awaits it (routes.tsx), so the page is there at
 * the first render instead of behind a loader for a moment — on `/admin`, the live page replaces
 * the pre-rendered frame and heading (prerender-home.tsx) without the heading going blank between.
 * `main.tsx` has usually started the same download already.
 */
export function loadHomePage(): Promise<HomeModule> {
  return import('../features/home').then((module) => {
    homeModule = module;
    return module;
  });
}

const LazyHomePage = lazy(async () => ({ default: (await loadHomePage()).HomePage }));

/**
 * The admin area's start page (`/admin`): the clinic dashboard for users with `dashboard.admin`;
 * reception (booking for patients, reading every appointment) the clinic's day, every doctor side
 * by side (`features/agenda`); for everyone else the home page (next appointments, shortcuts to the sections the side
 * navigation offers them). Each loads in its own chunk.
 */
export function HomeRoute() {
  // The session's own list first: the shared permission state is filled an effect later.
  const sharedPermissions = usePermissions();
  const permissions = useMe().data?.permissions ?? sharedPermissions;
  const isAdmin = hasAnyPermission(permissions, ['dashboard.admin']);
  // Reception's main screen is the day: every doctor side by side (the agenda without a doctor).
  const isReception =
    !isAdmin &&
    !hasAnyPermission(permissions, ['visits.host']) &&
    hasAnyPermission(permissions, ['appointments.book.any']) &&
    hasAnyPermission(permissions, ['appointments.read.any']);
  // Chosen once: the module when already loaded, else the lazy component (never switched later).
  const [HomePage] = useState(() => homeModule?.HomePage ?? LazyHomePage);
  // The next `/admin` in this browser is sent with this page's first paint (page-hints.ts).
  useEffect(() => rememberStartPage(isAdmin ? 'dashboard' : 'home'), [isAdmin]);
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
      ) : isReception ? (
        <ReceptionDay />
      ) : (
        <HomePage
          links={links}
          audience={
            hasAnyPermission(permissions, ['visits.host'])
              ? 'doctor'
              : hasAnyPermission(permissions, ['appointments.read.any', 'appointments.book.any'])
                ? 'staff'
                : 'patient'
          }
          canBook={hasAnyPermission(permissions, ['appointments.book.self'])}
          showAppointments={hasAnyPermission(permissions, ['appointments.read.own', 'appointments.read.any'])}
        />
      )}
    </Suspense>
  );
}
