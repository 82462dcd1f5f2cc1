import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { VisitNotePanel, WaitingRoomVitals } from '../features/notes';
import { VisitPage, type VisitSlots } from '../features/visit';
import { useHasAnyPermission } from '../lib/ui-state';

/**
 * The visit page with what the notes feature adds (composition only): the doctor's note as a tab
 * beside the call's chat, and the patient's vitals form in the waiting room.
 */
export function VisitRoute() {
  const { t } = useTranslation();
  const canWrite = useHasAnyPermission(['records.write']);
  const slots = useMemo<VisitSlots>(
    () => ({
      callPanel: (state) =>
        state.canHost && canWrite
          ? { label: t('notes.panelTab'), content: <VisitNotePanel appointmentId={state.appointmentId} /> }
          : null,
      lobbyExtra: (state) =>
        state.self.role === 'patient' ? <WaitingRoomVitals appointmentId={state.appointmentId} /> : null,
    }),
    [t, canWrite],
  );
  return <VisitPage slots={slots} />;
}
