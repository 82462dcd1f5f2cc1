import '@mantine/core/styles/Badge.layer.css';
import { Badge } from '@mantine/core';
import type { AdminUser } from '@telemedicina/shared/admin';
import { useTranslation } from 'react-i18next';
import { displayStatus, userStatusColors } from '../user-status';

/** Active, pending (invited, not yet accepted), disabled, or locked (sign-in lockout in force). */
export function UserStatusBadge({ user }: { user: Pick<AdminUser, 'status' | 'lockedUntil'> }) {
  const { t } = useTranslation();
  const status = displayStatus(user);
  return (
    <Badge
      variant="light"
      color={userStatusColors[status]}
      tt="none"
      data-testid="user-status"
      data-status={status}
    >
      {t(`users.status.${status}`)}
    </Badge>
  );
}
