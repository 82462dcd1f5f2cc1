import '@mantine/core/styles/Tabs.layer.css';
import { Tabs } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VisitIntakePanel, VisitIntakeTabLabel } from '../features/intake';
import { VisitNotePanel } from '../features/notes';

/**
 * What the doctor has beside the call (composition only): the note, and next to it the visit's
 * intake forms; "Add to the note" there puts the answers into the note and shows it. Both stay
 * mounted, so the note keeps its cursor and unsaved text while the forms are read.
 */
export function VisitSidePanel({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'note' | 'intake'>('note');
  return (
    <Tabs
      value={tab}
      onChange={(value) => setTab(value === 'intake' ? 'intake' : 'note')}
      keepMounted
      variant="pills"
      data-testid="visit-side-panel-tabs"
    >
      <Tabs.List grow mb="sm">
        <Tabs.Tab value="note" data-testid="visit-tab-note">
          {t('intake.visitPanel.noteTab')}
        </Tabs.Tab>
        <Tabs.Tab value="intake" data-testid="visit-tab-intake">
          <VisitIntakeTabLabel appointmentId={appointmentId} />
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="note">
        <VisitNotePanel appointmentId={appointmentId} />
      </Tabs.Panel>
      <Tabs.Panel value="intake">
        <VisitIntakePanel appointmentId={appointmentId} onInserted={() => setTab('note')} />
      </Tabs.Panel>
    </Tabs>
  );
}
