import { Stack } from '@mantine/core';
import { useMe } from '../../../lib/session';
import { ChangePasswordCard } from './ChangePasswordCard';
import { MfaCard } from './MfaCard';
import { SessionsCard } from './SessionsCard';

/**
 * `/admin/profile/security`: password, second factor and active sessions. While a second factor
 * is required and missing, the server allows only its setup, so only that card shows.
 */
export function ProfileSecurityPage() {
  const me = useMe().data;
  if (!me) {
    return null;
  }
  const isEnrollmentRequired = me.session.mfaEnrollmentRequired;
  return (
    <Stack gap="lg" data-testid="profile-security">
      {isEnrollmentRequired ? null : <ChangePasswordCard key="password" user={me.user} />}
      <MfaCard key="mfa" user={me.user} isRequired={isEnrollmentRequired} />
      {isEnrollmentRequired ? null : <SessionsCard key="sessions" timeZone={me.user.timeZone} />}
    </Stack>
  );
}
