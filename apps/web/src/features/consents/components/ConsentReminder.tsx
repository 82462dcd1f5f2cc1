import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconSignature } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMe } from '../../../lib/session';
import { usePatientConsents } from '../api/patient-consents';
import { requiredConsentOf } from './ConsentStateBadge';

/**
 * "Consent to sign" on the patient's upcoming appointment, check-in and the next visit's card on
 * the portal's home (`compact`: one line and the action): shown when the current version of the
 * required (telemedicine) consent is not signed by them. Never blocks the visit.
 */
export function ConsentReminder({ patientId, compact = false }: { patientId: string; compact?: boolean }) {
  const { t } = useTranslation();
  // Only the patient is asked; a doctor or reception opening the same page sees nothing here.
  const isPatient = useMe().data?.user.id === patientId;
  const consents = usePatientConsents(isPatient ? patientId : undefined);
  const required = requiredConsentOf(consents.data);
  if (required === null || required.state === 'signed') {
    return null;
  }
  const action = (
    <Button
      component={Link}
      to={`/portal/consents/${required.documentId}`}
      size="sm"
      // Compact (inside the next visit's card): a quiet button beside the card's main action. The
      // light yellow of before read 1.8:1 against its own background (axe, WCAG AA wants 4.5:1).
      variant={compact ? 'default' : 'filled'}
      leftSection={compact ? <IconSignature size={18} aria-hidden /> : undefined}
      data-testid="consent-reminder-action"
    >
      {t('consents.toSignAction')}
    </Button>
  );
  if (compact) {
    return (
      <Group gap="xs" justify="space-between" wrap="wrap" data-testid="consent-reminder" data-compact>
        <Text size="sm" fw={600}>
          {t('consents.toSign')}
        </Text>
        {action}
      </Group>
    );
  }
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconSignature size={20} aria-hidden />}
      title={t('consents.toSign')}
      data-testid="consent-reminder"
    >
      <Text size="sm" mb="sm">
        {t('consents.toSignBody')}
      </Text>
      {action}
    </Alert>
  );
}
