import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCalendarEvent } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { dateInZone } from '../../lib/clock';
import { useClock } from '../../lib/use-clock';
import classes from './VisitContextHeader.module.css';
import { ageOn, useVisitContext, type VisitContext } from './get-visit-context';

export interface VisitContextHeaderProps {
  /** The visit the page is about (the note's; a prescription's when it is linked to one). */
  appointmentId: string | null;
  /** The patient, when the page knows them without a visit (a prescription written outside one). */
  patientId?: string | null;
}

/**
 * Who and which visit, above the note editor and the prescription form, so the doctor never writes
 * without seeing for whom and for which visit: the patient's name, age,
 * sex and current allergies (from the chart the doctor may read), the visit's date and time in the
 * doctor's account zone (the one clock) and its reason when the doctor may read it.
 */
export function VisitContextHeader({ appointmentId, patientId = null }: VisitContextHeaderProps) {
  const { t } = useTranslation();
  const context = useVisitContext(appointmentId, patientId);
  if (context.isPending) {
    return (
      <Paper withBorder radius="lg" p="md" className={classes.header} aria-busy="true">
        <Skeleton height={22} width="40%" mb="xs" />
        <Skeleton height={14} width="70%" />
      </Paper>
    );
  }
  if (context.isError) {
    // The page itself says what went wrong with the note or the form; the header stays quiet.
    return (
      <Text size="sm" c="gray.7" data-testid="visit-context-unavailable">
        {t('visitContext.unavailable')}
      </Text>
    );
  }
  return <VisitContextView context={context.data} />;
}

/** The header drawn from a loaded context (kept apart so it can be shown without fetching). */
export function VisitContextView({ context }: { context: VisitContext }) {
  const { t } = useTranslation();
  const clock = useClock();
  const { patient, visit } = context;
  const age =
    patient.dateOfBirth === null ? null : ageOn(patient.dateOfBirth, dateInZone(new Date(), clock.timeZone));
  const facts = [
    age === null ? null : t('visitContext.age', { count: age }),
    patient.sex === 'unknown' ? null : t(`records.sex.${patient.sex}`),
  ].filter((fact) => fact !== null);

  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      className={classes.header}
      component="section"
      aria-label={t('visitContext.label')}
      data-testid="visit-context"
    >
      <div className={classes.grid}>
        <Stack gap={4} className={classes.patient}>
          <Title order={2} size="h4" className={classes.name} data-testid="visit-context-patient">
            {patient.name}
          </Title>
          {facts.length > 0 ? (
            <Text size="sm" c="gray.7" data-testid="visit-context-facts">
              {facts.join(' · ')}
            </Text>
          ) : null}
          {patient.allergies === null ? null : patient.allergies.length === 0 ? (
            <Text size="sm" c="gray.7" data-testid="visit-context-allergies">
              {t('visitContext.noAllergies')}
            </Text>
          ) : (
            <Group gap={6} wrap="wrap" data-testid="visit-context-allergies">
              <Text size="sm" fw={600} c="red.9" component="span" className={classes.allergyLabel}>
                <IconAlertTriangle size={16} aria-hidden className={classes.icon} />
                {t('visitContext.allergies')}
              </Text>
              {patient.allergies.map((allergy) => (
                <Badge
                  key={allergy.id}
                  color="red"
                  variant="light"
                  tt="none"
                  size="lg"
                  className={classes.badge}
                  data-testid="visit-context-allergy"
                >
                  {allergy.severity === 'unknown'
                    ? allergy.substance
                    : `${allergy.substance} (${t(`records.severity.${allergy.severity}`).toLowerCase()})`}
                </Badge>
              ))}
            </Group>
          )}
        </Stack>
        {visit === null ? null : (
          <Stack gap={4} className={classes.visit}>
            <Text size="sm" fw={600} className={classes.when} data-testid="visit-context-when">
              <IconCalendarEvent size={16} aria-hidden className={classes.icon} />
              {clock.format(visit.startsAt, {
                weekday: 'long',
                day: 'numeric',
                month: 'long',
                year: 'numeric',
                hour: 'numeric',
                minute: '2-digit',
              })}
            </Text>
            <Text size="xs" c="gray.7">
              {clock.zoneName()}
            </Text>
            <Text size="sm" data-testid="visit-context-reason">
              <Text span c="gray.7">
                {t('visitContext.reason')}:{' '}
              </Text>
              {visit.reason !== null && visit.reason.trim() !== ''
                ? visit.reason
                : visit.isReasonWithheld === true
                  ? t('visitContext.reasonWithheld')
                  : t('visitContext.noReason')}
            </Text>
          </Stack>
        )}
      </div>
    </Paper>
  );
}
