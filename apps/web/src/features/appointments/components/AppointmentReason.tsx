import type { Appointment } from '@telemedicina/shared/appointment';
import { useTranslation } from 'react-i18next';

/**
 * The reason for a visit as the server let this reader see it: the text; "Reserved for the doctor"
 * (dimmed, with why in its title) when the clinic withholds it from staff; a dash when none was given.
 */
export function AppointmentReason({
  appointment,
}: {
  appointment: Pick<Appointment, 'reason' | 'isReasonWithheld'>;
}) {
  const { t } = useTranslation();
  if (appointment.isReasonWithheld === true) {
    return (
      <span
        style={{ color: 'var(--mantine-color-gray-7)', fontStyle: 'italic' }}
        title={t('appointments.reasonWithheldHint')}
        data-testid="appointment-reason-withheld"
      >
        {t('appointments.reasonWithheld')}
      </span>
    );
  }
  return <>{appointment.reason ?? '—'}</>;
}
