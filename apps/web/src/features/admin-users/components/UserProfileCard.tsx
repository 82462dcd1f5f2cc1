import '@mantine/core/styles/Avatar.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import { Anchor, Avatar, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import type { AdminUser } from '@telemedicina/shared/admin';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { formatDate } from '../format-date';
import { initialsOf, isLocked } from '../user-status';
import { UserStatusBadge } from './UserStatusBadge';
import classes from './Users.module.css';
import { useViewerTimeZone } from '../../../lib/use-clock';

/** Who the account is and its state: photo or initials, email, status, second factor, dates. */
export function UserProfileCard({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const canReadAudit = useHasAnyPermission(['audit.read']);
  const locked = isLocked(user);
  return (
    <Paper withBorder radius="lg" className={classes.card} data-testid="user-profile">
      <Stack gap="md">
        <Group gap="md" wrap="nowrap" align="center">
          <Avatar
            src={user.photoUrl}
            alt={t('admin.userMenu.photoAlt', { name: user.name })}
            size={64}
            radius="xl"
            color="clinic"
            variant="light"
          >
            {initialsOf(user.name)}
          </Avatar>
          <Stack gap={6} miw={0}>
            <Text fw={600} size="sm" className={classes.email} data-testid="user-email">
              {user.email}
            </Text>
            {user.emailVerified ? null : (
              <Text size="xs" c="orange.9">
                {t('users.detail.emailUnverified')}
              </Text>
            )}
            <Group gap={6}>
              <UserStatusBadge user={user} />
              {user.mfaEnabled ? (
                <Badge variant="light" color="clinic" tt="none">
                  {t('users.detail.mfaBadge')}
                </Badge>
              ) : null}
            </Group>
          </Stack>
        </Group>
        <dl className={classes.facts}>
          <div>
            <dt>{t('users.detail.mfa')}</dt>
            <dd data-testid="user-mfa">
              {user.mfaEnabled ? t('users.detail.mfaOn') : t('users.detail.mfaOff')}
            </dd>
          </div>
          <div>
            <dt>{t('users.columns.lastSignIn')}</dt>
            <dd>
              {user.lastSignInAt ? formatDateTime(user.lastSignInAt, language, timeZone) : t('users.never')}
            </dd>
          </div>
          <div>
            <dt>{t('users.columns.created')}</dt>
            <dd>{formatDate(user.createdAt, language, timeZone)}</dd>
          </div>
          <div>
            <dt>{t('auth.fields.language')}</dt>
            <dd>{t(`languages.${user.language}.name`)}</dd>
          </div>
          {locked && user.lockedUntil ? (
            <div>
              <dt>{t('users.detail.lockedUntil')}</dt>
              <dd data-testid="user-locked-until">{formatDateTime(user.lockedUntil, language, timeZone)}</dd>
            </div>
          ) : null}
          {user.disabledAt ? (
            <div>
              <dt>{t('users.detail.disabledAt')}</dt>
              <dd>{formatDateTime(user.disabledAt, language, timeZone)}</dd>
            </div>
          ) : null}
        </dl>
        {canReadAudit ? (
          <Anchor
            component={Link}
            to={`/admin/audit?targetId=${encodeURIComponent(user.id)}`}
            size="sm"
            fw={600}
            underline="hover"
            className={classes.auditLink}
            data-testid="user-audit-link"
          >
            <IconHistory size={16} aria-hidden />
            {t('users.detail.auditTrail')}
          </Anchor>
        ) : null}
      </Stack>
    </Paper>
  );
}
