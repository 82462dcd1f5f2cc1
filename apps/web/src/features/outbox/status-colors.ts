import type { OutboxItem } from '@telemedicina/shared';

/** Badge colour of each delivery status. */
export const outboxStatusColors: Record<OutboxItem['status'], string> = {
  stored: 'gray',
  queued: 'blue',
  sent: 'teal',
  failed: 'red',
};
