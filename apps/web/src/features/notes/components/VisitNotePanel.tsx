import '@mantine/core/styles/Anchor.layer.css';
import { Anchor, Group } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './Notes.module.css';
import { NoteWorkspace } from './NoteWorkspace';

/** The note beside the running call (a tab next to the chat; a drawer on a phone). */
export function VisitNotePanel({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation();
  return (
    <div className={classes.panel} data-testid="visit-note-panel">
      <Group justify="flex-end">
        <Anchor
          component={Link}
          to={`/admin/appointments/${encodeURIComponent(appointmentId)}/note`}
          target="_blank"
          rel="noopener"
          size="xs"
        >
          <Group gap={4} component="span">
            {t('notes.openFullPage')}
            <IconExternalLink size={14} />
          </Group>
        </Anchor>
      </Group>
      <NoteWorkspace appointmentId={appointmentId} isCompact />
    </div>
  );
}
