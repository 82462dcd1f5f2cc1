import '@mantine/core/styles/Alert.layer.css';
import { Alert, Button, Text } from '@mantine/core';
import { IconSignature } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useMe } from '../../../lib/session';
import { usePatientConsents } from '../api/patient-consents';
import { requiredConsentOf } from './ConsentStateBadge';

/**
 * "Consent to sign" on the patient's upcoming appointment and check-in: shown when the current
 * version of the required (telemedicine) consent is not signed by them. Never blocks the visit.
 */
export function ConsentReminder({ patientId }: { patientId: string }) {
  const { t } = useTranslation();
  // Only the patient is asked; a doctor or reception opening the same page sees nothing here.
  const isPatient = useMe().data?.user.id === patientId;
  const consents = usePatientConsents(isPatient ? patientId : undefined);
  const required = requiredConsentOf(consents.data);
  if (required === null || required.state === 'signed') {
    return null;
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
      <Button component={Link} to={`/portal/consents/${required.documentId}`} size="sm">
        {t('consents.toSignAction')}
      </Button>
    </Alert>
  );
}
