import { Navigate, Outlet, useLocation } from 'react-router';
import { DelayedLoader } from '../components/delayed-loader/DelayedLoader';
import { ServerErrorPage } from '../features/errors';
import { mfaEnrollmentPath, signInPathFor } from '../lib/return-to';
import { useMe } from '../lib/session';
import { useSessionEndReason } from '../lib/session-state';

/**
 * The admin area's guard. Signed out → the sign-in page with the way back (`/?returnTo=<path>`),
 * or the plain sign-in page after an explicit sign-out. A user whose role requires a second factor
 * they have not set up reaches only the screen that sets it up. The server enforces the same rules;
 * this only keeps people from landing on screens that would fail.
 */
export function RequireSession() {
  const me = useMe();
  const location = useLocation();
  const endReason = useSessionEndReason();

  if (me.isPending) {
    return <DelayedLoader minHeight="100dvh" />;
  }
  // A failed refresh (a keep-alive ping during a network blip) keeps the user already known.
  if (me.isError && !me.data) {
    return <ServerErrorPage />;
  }
  if (!me.data) {
    const target = endReason === 'signedOut' ? '/' : signInPathFor(`${location.pathname}${location.search}`);
    return <Navigate to={target} replace />;
  }
  if (me.data.session.mfaEnrollmentRequired && location.pathname !== mfaEnrollmentPath) {
    return <Navigate to={mfaEnrollmentPath} replace />;
  }
  return <Outlet />;
}
