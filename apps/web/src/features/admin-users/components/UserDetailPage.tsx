import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import { Alert, Button, Skeleton, Stack } from '@mantine/core';
import { IconArrowLeft, IconUserQuestion } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { ApiError } from '../../../lib/api-client';
import { useApiErrorText } from '../../../lib/error-text';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useUser } from '../api/get-user';
import { UserActionsCard } from './UserActionsCard';
import { UserEditForm } from './UserEditForm';
import { UserProfileCard } from './UserProfileCard';
import { UserRolesEditor } from './UserRolesEditor';
import classes from './Users.module.css';

/**
 * `/admin/users/:id`: one account — profile facts, the profile form, the roles, and the account
 * actions (disable/enable, unlock, reset the second factor) behind confirmations. Read-only with
 * `users.read`; editable with `users.manage`.
 */
export function UserDetailPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['users.read', 'users.manage']);
  return (
    <div className={pageClasses.page} data-testid="user-detail-page">
      <Link to="/admin/users" className={classes.back} data-testid="user-back">
        <IconArrowLeft size={16} aria-hidden />
        {t('users.detail.back')}
      </Link>
      {isAllowed ? (
        <UserDetail />
      ) : (
        <>
          <SectionHeader title={t('admin.nav.users')} description={t('admin.sections.users')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}

function UserDetail() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const { id = '' } = useParams();
  const language = useLanguage();
  const canManage = useHasAnyPermission(['users.manage']);
  const result = useUser(id);

  if (result.isPending) {
    return (
      <Stack gap="md" aria-busy="true" data-testid="user-loading">
        <Skeleton height={36} width="40%" radius="md" />
        <Skeleton height={220} radius="lg" />
      </Stack>
    );
  }
  if (result.isError) {
    if (result.error instanceof ApiError && result.error.status === 404) {
      return (
        <Alert
          color="gray"
          variant="light"
          icon={<IconUserQuestion />}
          title={t('users.detail.notFoundTitle')}
          data-testid="user-not-found"
        >
          <Stack gap="sm" align="flex-start">
            {t('users.detail.notFound')}
            <Button component={Link} to="/admin/users" variant="default" size="xs">
              {t('users.detail.back')}
            </Button>
          </Stack>
        </Alert>
      );
    }
    return (
      <Alert color="red" variant="light" data-testid="user-error">
        <Stack gap="sm" align="flex-start">
          {errorText(result.error)}
          <Button variant="default" size="xs" onClick={() => void result.refetch()}>
            {t('listTable.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }

  const user = result.data;
  return (
    <>
      <SectionHeader
        title={user.name}
        description={
          user.roles.length > 0
            ? user.roles.map((role) => role.name[language]).join(' · ')
            : t('users.noRoles')
        }
      />
      <div className={classes.grid}>
        <Stack gap="lg">
          <UserProfileCard user={user} />
          {canManage ? <UserActionsCard user={user} /> : null}
        </Stack>
        <Stack gap="lg">
          <UserEditForm key={`${user.id}-form`} user={user} isReadOnly={!canManage} />
          <UserRolesEditor key={`${user.id}-roles`} user={user} isReadOnly={!canManage} />
        </Stack>
      </div>
    </>
  );
}
