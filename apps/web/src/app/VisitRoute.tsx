import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { WaitingRoomVitals } from '../features/notes';
import { VisitPage, type VisitSlots } from '../features/visit';
import { useHasAnyPermission } from '../lib/ui-state';
import { VisitSidePanel } from './VisitSidePanel';

/**
 * The visit page with what the notes and intake features add (composition only): the doctor's
 * note and the visit's forms as a tab beside the call's chat, and the patient's vitals form in the waiting room.
 */
export function VisitRoute() {
  const { t } = useTranslation();
  const canWrite = useHasAnyPermission(['records.write']);
  const slots = useMemo<VisitSlots>(
    () => ({
      callPanel: (state) =>
        state.canHost && canWrite
          ? {
              label: t('intake.visitPanel.sideLabel'),
              content: <VisitSidePanel appointmentId={state.appointmentId} />,
            }
          : null,
      lobbyExtra: (state) =>
        state.self.role === 'patient' ? <WaitingRoomVitals appointmentId={state.appointmentId} /> : null,
    }),
    [t, canWrite],
  );
  return <VisitPage slots={slots} />;
}
