import '@mantine/core/styles/Badge.layer.css';
import { Badge } from '@mantine/core';
import type { PatientConsents } from '@telemedicina/shared/consents';
import { useTranslation } from 'react-i18next';
import { usePatientConsents } from '../api/patient-consents';

const colors = { signed: 'teal', outdated: 'yellow', withdrawn: 'red', not_signed: 'gray' } as const;

/** The required (telemedicine) consent of a patient, as the state the doctor sees before admitting. */
export function requiredConsentOf(consents: PatientConsents | undefined) {
  return consents?.items.find((item) => item.required) ?? null;
}

/**
 * A small badge with the patient's telemedicine consent state ("Consentimiento v1 firmado", "sin
 * firmar", "retirado"), for the waiting-room card and the chart. Draws nothing while loading or
 * when the viewer may not read the patient's consents.
 */
export function ConsentStateBadge({ patientId }: { patientId: string }) {
  const { t } = useTranslation();
  const consents = usePatientConsents(patientId);
  const required = requiredConsentOf(consents.data);
  if (required === null) {
    return null;
  }
  const version = required.latest?.version ?? required.currentVersion;
  return (
    <Badge
      color={colors[required.state]}
      variant="light"
      tt="none"
      title={t('consents.badgeLabel')}
      data-testid="consent-badge"
      data-state={required.state}
    >
      {t(`consents.badge.${required.state}`, { version })}
    </Badge>
  );
}
