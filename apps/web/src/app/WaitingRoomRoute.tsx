import { ConsentStateBadge } from '../features/consents';
import { IntakeScoreBadges } from '../features/intake';
import { WaitingRoomPage } from '../features/visit';

/**
 * Fetches the visit page (the call screen and what other features add to it) ahead, so admitting
 * someone from the waiting room opens the call without waiting for its code.
 */
function preloadCall(): void {
  void import('./VisitRoute').catch(() => undefined);
}

/** The waiting room, with the call screen's code fetched while someone waits (composition only). */
export function WaitingRoomRoute() {
  return (
    <WaitingRoomPage
      preloadCall={preloadCall}
      renderEntryExtra={(entry) => (
        <>
          <IntakeScoreBadges appointmentId={entry.appointmentId} />
          <ConsentStateBadge patientId={entry.patient.id} />
        </>
      )}
    />
  );
}
