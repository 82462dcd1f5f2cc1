import { Badge, Group, Text } from '@mantine/core';
import type { IntakeScore } from '@telemedicina/shared/intake';
import type { Severity } from '@telemedicina/shared/intake-logic';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useAppointmentForms } from '../api/intake';

const severityColor: Record<Severity, string> = {
  minimal: 'gray',
  mild: 'yellow',
  moderate: 'orange',
  moderatelySevere: 'red',
  severe: 'red',
};

/** "PHQ-9 10 · moderada" and, for a PHQ-9 item 9 above 0, the red self-harm flag. */
export function IntakeScore({ score }: { score: IntakeScore }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="wrap">
      <Badge
        variant="light"
        color={severityColor[score.severity]}
        data-testid="intake-score"
        data-instrument={score.instrument}
        data-score={score.score}
        data-severity={score.severity}
        style={{ textTransform: 'none' }}
      >
        {t('intake.score', {
          instrument: t(`intake.instruments.${score.instrument}`),
          score: score.score,
          severity: t(`intake.severity.${score.severity}`),
        })}
      </Badge>
      {score.selfHarmFlag ? (
        <Badge
          variant="filled"
          color="red"
          leftSection={<IconAlertTriangle size={14} />}
          data-testid="intake-self-harm-flag"
          // The whole sentence, wrapped on a phone: a clinician must read all of it.
          styles={{
            root: { textTransform: 'none', height: 'auto', paddingBlock: 4, maxWidth: '100%' },
            label: { whiteSpace: 'normal', overflow: 'visible', textOverflow: 'clip' },
          }}
        >
          {t('intake.selfHarmFlag')}
        </Badge>
      ) : null}
    </Group>
  );
}

/**
 * The waiting-room card's line about the visit's forms: each completed instrument's score and flag,
 * or how many forms are still open. Nothing when there are none or the reader may not see them.
 */
export function IntakeScoreBadges({ appointmentId }: { appointmentId: string }) {
  const { t } = useTranslation();
  const forms = useAppointmentForms(appointmentId);
  const data = forms.data ?? [];
  if (data.length === 0) {
    return null;
  }
  const open = data.filter((form) => form.status === 'in-progress').length;
  return (
    <Group gap={6} wrap="wrap" data-testid="intake-badges">
      {data.map((form) => (form.score === null ? null : <IntakeScore key={form.id} score={form.score} />))}
      {open > 0 ? (
        <Text size="sm" c="gray.7" data-testid="intake-open">
          {t('intake.openForms', { count: open })}
        </Text>
      ) : null}
    </Group>
  );
}
