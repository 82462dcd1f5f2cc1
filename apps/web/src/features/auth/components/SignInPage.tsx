import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { DelayedLoader } from '../../../components/delayed-loader/DelayedLoader';
import { sanitizeReturnTo, signedInTarget } from '../../../lib/return-to';
import { storeMe, useMe } from '../../../lib/session';
import { sessionState, type SessionEndReason } from '../../../lib/session-state';
import { SignInForm } from '../sign-in/SignInForm';

/**
 * `/` inside the application: sign in. A signed-in visitor goes straight on (to the return path or
 * the admin area). The form itself is the one the signed-out start page shows before the
 * application is downloaded (`SignInForm`, see `main.tsx`); here the answer goes to the cache and
 * the router moves on.
 */
export function SignInPage() {
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  // The notice of how the last session ended is read once, then cleared.
  const [notice] = useState<SessionEndReason | null>(() => sessionState.getState().endReason);
  useEffect(() => {
    sessionState.getState().clearEndReason();
  }, []);

  if (me.data) {
    return <Navigate to={signedInTarget(me.data, searchParams.get('returnTo'))} replace />;
  }
  if (me.isPending) {
    // About the form's height: on phones the presentation sits below the card, and a card that
    // grew when the form arrived pushed it down (Lighthouse CLS 0.13).
    return <DelayedLoader minHeight={360} />;
  }
  return (
    <SignInForm
      notice={notice}
      isReturning={sanitizeReturnTo(searchParams.get('returnTo')) !== null}
      onSignedIn={(signedIn) => storeMe(queryClient, signedIn)}
      onNavigate={(path) => void navigate(path)}
    />
  );
}
