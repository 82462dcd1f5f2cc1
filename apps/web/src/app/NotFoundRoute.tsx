import { isPortalUser, portalHomePath } from '@telemedicina/shared/portal';
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { DelayedLoader } from '../components/delayed-loader/DelayedLoader';
import { NotFoundContent, NotFoundPage } from '../features/errors';
import { defaultSignedInPath } from '../lib/return-to';
import { useMe } from '../lib/session';

const AdminShell = lazy(async () => ({ default: (await import('./AdminShell')).AdminShell }));
const PortalShell = lazy(async () => ({ default: (await import('./PortalShell')).PortalShell }));

/**
 * Every unknown address (`*`, inside `/admin` and `/portal` too). Signed out it is the
 * specification's page ("Sitio no encontrado", one step back). Signed in, the person keeps their
 * frame — the portal's for a patient, the admin area's for staff — with the way home, so a
 * mistyped or outdated link is not a dead end.
 */
export function NotFoundRoute() {
  const me = useMe();
  if (me.isPending) {
    return <DelayedLoader minHeight="100dvh" />;
  }
  if (!me.data) {
    return <NotFoundPage />;
  }
  const isPatient = isPortalUser(me.data.permissions);
  const Shell = isPatient ? PortalShell : AdminShell;
  return (
    <Suspense fallback={<DelayedLoader minHeight="100dvh" />}>
      <Routes>
        <Route element={<Shell />}>
          <Route
            path="*"
            element={<NotFoundContent homePath={isPatient ? portalHomePath : defaultSignedInPath} />}
          />
        </Route>
      </Routes>
    </Suspense>
  );
}
