import '@mantine/core/styles/Anchor.layer.css';
import { Anchor, Group, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { VisitContextHeader } from '../../../components/patient-context/VisitContextHeader';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { NoteWorkspace } from './NoteWorkspace';

export const notePermissions = ['records.write', 'records.read', 'records.read.own'] as const;

/** `/admin/appointments/:id/note`: the visit's clinical note on a page of its own. */
export function NotePage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const isAllowed = useHasAnyPermission(notePermissions);
  // The doctor writing it sees whom and which visit the note is about.
  const isWriter = useHasAnyPermission(['records.write']);
  return (
    <div className={pageClasses.page} data-testid="note-page">
      <Stack gap="md">
        <Anchor component={Link} to={`/admin/appointments/${encodeURIComponent(id)}`} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={16} />
            {t('notes.backToAppointment')}
          </Group>
        </Anchor>
        <Title order={1} className={pageClasses.title}>
          {t('notes.title')}
        </Title>
        {isAllowed && isWriter ? <VisitContextHeader appointmentId={id} /> : null}
        {isAllowed ? <NoteWorkspace key={id} appointmentId={id} /> : <SectionForbidden />}
      </Stack>
    </div>
  );
}
