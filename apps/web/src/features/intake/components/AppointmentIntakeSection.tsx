import { Anchor, Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconClipboardList } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMe } from '../../../lib/session';
import { useLanguage } from '../../../lib/ui-state';
import { useAppointmentForms } from '../api/intake';
import { IntakeScore } from './IntakeScoreBadges';

/**
 * "Forms to fill in" on the appointment page (and the check-in): each form due for the visit with
 * its state; the patient opens it to answer, the doctor to read the answers. Never blocks the visit.
 */
export function AppointmentIntakeSection({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation();
  const language = useLanguage() === 'en' ? 'en' : 'es';
  const forms = useAppointmentForms(appointmentId);
  const me = useMe().data;
  const data = forms.data ?? [];
  // Who reads decides the wording (the patient is asked, a clinician is told): wait for it.
  if (data.length === 0 || !me) {
    return null;
  }
  const open = data.filter((form) => form.status === 'in-progress').length;
  const isPatient = data.some((form) => form.patientId === me.user.id);
  const openText = isPatient
    ? t('intake.section.pending', { count: open })
    : t('intake.openForms', { count: open });
  return (
    <Paper withBorder radius="md" p="md" data-testid="intake-section">
      <Stack gap="sm">
        <Group gap={8}>
          <IconClipboardList size={20} aria-hidden />
          <Title order={2} size="h4">
            {t('intake.section.title')}
          </Title>
        </Group>
        <Text size="sm" c="gray.7" data-testid="intake-section-state">
          {open > 0 ? openText : t('intake.section.allDone')}
        </Text>
        <Stack gap="xs" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {data.map((form) => (
            <Group
              key={form.id}
              component="li"
              justify="space-between"
              gap="sm"
              data-testid="intake-form-row"
            >
              <Anchor component={Link} to={`/admin/intake/${encodeURIComponent(form.id)}`} fw={600}>
                {form.title[language]}
              </Anchor>
              {/* Scores and flags are for the clinicians; the patient sees whether each form is sent. */}
              {form.score !== null && me.user.id !== form.patientId ? (
                <IntakeScore score={form.score} />
              ) : (
                <Badge
                  variant="light"
                  color={form.status === 'completed' ? 'teal' : 'blue'}
                  style={{ textTransform: 'none' }}
                >
                  {t(`intake.status.${form.status === 'completed' ? 'completed' : 'inProgress'}`)}
                </Badge>
              )}
            </Group>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
