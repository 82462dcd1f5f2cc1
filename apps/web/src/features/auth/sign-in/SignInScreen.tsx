import type { MeResponse } from '@telemedicina/shared/auth';
import { useEffect, useState } from 'react';
import { sanitizeReturnTo } from '../../../lib/return-to';
import { sessionState, type SessionEndReason } from '../../../lib/session-state';
import { AuthFrame } from '../components/AuthFrame';
import { SignInForm } from './SignInForm';

/**
 * The signed-out start page (`/`) as `main.tsx` shows it before the application is downloaded:
 * the authentication frame around the sign-in form, with neither router nor query cache. Signing
 * in or following a link hands over to the application (`onSignedIn`, `onNavigate`).
 */
export function SignInScreen({
  onSignedIn,
  onNavigate,
}: {
  onSignedIn: (me: MeResponse) => void;
  onNavigate: (path: string) => void;
}) {
  // The notice of how the last session ended is read once, then cleared.
  const [notice] = useState<SessionEndReason | null>(() => sessionState.getState().endReason);
  useEffect(() => {
    sessionState.getState().clearEndReason();
  }, []);
  // A guarded deep link (`/?returnTo=…`) says why it asks to sign in. The build also pre-renders
  // this screen, where there is no address (nor window): no return path there.
  const [isReturning] = useState(
    () =>
      typeof window !== 'undefined' &&
      sanitizeReturnTo(new URLSearchParams(window.location.search).get('returnTo')) !== null,
  );
  return (
    <AuthFrame onNavigate={onNavigate}>
      <SignInForm notice={notice} isReturning={isReturning} onSignedIn={onSignedIn} onNavigate={onNavigate} />
    </AuthFrame>
  );
}
