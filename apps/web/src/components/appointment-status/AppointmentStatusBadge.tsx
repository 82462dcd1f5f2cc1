import '@mantine/core/styles/Badge.layer.css';
import { Badge } from '@mantine/core';
import type { AppointmentStatus } from '@telemedicina/shared/common';
import { useTranslation } from 'react-i18next';
import { appointmentStatusColors } from '../../lib/appointment-status';

export function AppointmentStatusBadge({ status }: { status: AppointmentStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="light" color={appointmentStatusColors[status]} tt="none" data-testid="appointment-status">
      {t(`adminDashboard.status.${status}`)}
    </Badge>
  );
}
