import type { OutboxItem } from '@telemedicina/shared/auth';

/** Badge colour of each delivery status. */
export const outboxStatusColors: Record<OutboxItem['status'], string> = {
  stored: 'gray',
  queued: 'blue',
  sent: 'teal',
  failed: 'red',
};
