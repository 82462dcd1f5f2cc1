import type { AppointmentStatus } from '@telemedicina/shared/common';

/**
 * One colour per appointment status, the same everywhere (badges, the dashboard's stacked bars,
 * the search hits): waiting states in warm/blue tones, the outcome states teal (done), red (no-show)
 * and gray (cancelled). Mantine palette names; charts use shade 6 (`teal.6`).
 */
export const appointmentStatusColors: Record<AppointmentStatus, string> = {
  requested: 'yellow',
  confirmed: 'blue',
  checked_in: 'cyan',
  in_progress: 'violet',
  completed: 'teal',
  cancelled: 'gray',
  no_show: 'red',
};
