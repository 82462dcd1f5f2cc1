import { lazy, Suspense } from 'react';
import { PortalHomePage } from '../features/portal';
import { useMe } from '../lib/session';

// Loaded after the home has drawn (it asks the server for the patient's consents).
const ConsentReminder = lazy(async () => ({
  default: (await import('../features/consents/reminder')).ConsentReminder,
}));

/** The patient's home with a consent still to sign on the next visit's card (composition only). */
export function PortalHomeRoute() {
  const patientId = useMe().data?.user.id;
  return (
    <PortalHomePage
      renderNextExtra={() =>
        patientId === undefined ? null : (
          <Suspense fallback={null}>
            <ConsentReminder patientId={patientId} compact />
          </Suspense>
        )
      }
    />
  );
}
