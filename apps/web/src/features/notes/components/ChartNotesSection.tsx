import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import { Anchor, Badge, Loader, Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiErrorText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { useChartNotes } from '../api/chart-notes';
import { diagnosisName } from './DiagnosisPicker';
import classes from './Notes.module.css';
import { useViewerTimeZone } from '../../../lib/use-clock';

/** The chart's "Notes" section: each visit's note (date, doctor, status, diagnoses), linking to it. */
export function ChartNotesSection({ patientId }: { patientId: string }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const errorText = useApiErrorText();
  const notes = useChartNotes(patientId);
  return (
    <Paper withBorder radius="md" p="md" data-testid="chart-notes">
      <Title order={2} size="h4" mb="xs">
        {t('notes.chart.title')}
      </Title>
      {notes.isPending ? (
        <Loader size="sm" />
      ) : notes.isError ? (
        <Text size="sm" c="red.8">
          {errorText(notes.error)}
        </Text>
      ) : notes.data.items.length === 0 ? (
        <Text size="sm" c="gray.7" data-testid="chart-notes-empty">
          {t('notes.chart.empty')}
        </Text>
      ) : (
        notes.data.items.map((item) => (
          <div key={item.id} className={classes.noteEntry} data-testid="chart-note">
            <div className={classes.noteEntryText}>
              <Anchor
                component={Link}
                to={`/admin/appointments/${encodeURIComponent(item.appointmentId)}/note`}
                size="sm"
                fw={600}
              >
                {formatDateTime(item.visitStartsAt, language, timeZone)}
              </Anchor>
              <Text size="sm" c="gray.7">
                {item.doctor.name}
                {item.addendaCount > 0 ? ` · ${t('notes.chart.addenda', { count: item.addendaCount })}` : ''}
              </Text>
              {item.diagnoses.length > 0 ? (
                <Text size="xs" c="gray.8" mt={2} data-testid="chart-note-diagnoses">
                  {item.diagnoses
                    .map((diagnosis) => `${diagnosis.code} ${diagnosisName(diagnosis, language)}`)
                    .join(' · ')}
                </Text>
              ) : null}
            </div>
            <Badge
              variant="light"
              tt="none"
              color={item.status === 'signed' ? 'teal' : 'yellow'}
              style={{ flex: 'none' }}
            >
              {t(`notes.status.${item.status}`)}
            </Badge>
          </div>
        ))
      )}
    </Paper>
  );
}
