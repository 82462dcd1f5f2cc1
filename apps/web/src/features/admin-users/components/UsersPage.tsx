import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Badge, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { IconDownload, IconUserPlus } from '@tabler/icons-react';
import { adminUserStatusFilterSchema, type AdminUser } from '@telemedicina/shared/admin';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage, ListPageFrame } from '../../../components/list-page';
import type { ListTableColumn } from '../../../components/list-table';
import { formatDateTime } from '../../../lib/format';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useListParams } from '../../../lib/use-list-params';
import { useRoleOptions } from '../api/get-role-options';
import { useUsers, usersExportUrl } from '../api/get-users';
import { formatDate } from '../format-date';
import { InviteUserModal } from './InviteUserModal';
import { UserStatusBadge } from './UserStatusBadge';
import classes from './Users.module.css';
import { useViewerTimeZone } from '../../../lib/use-clock';

const statuses = adminUserStatusFilterSchema.options;

/**
 * `/admin/users`: every account, searchable (name, email, role), filtered by role and status,
 * sorted and paged in the address; "Invite user" and the CSV export of the current filter. Seen
 * with `users.read` or `users.manage`; the actions only with `users.manage`.
 */
export function UsersPage() {
  const { t } = useTranslation();
  return (
    <ListPageFrame
      testId="users-page"
      title={t('admin.nav.users')}
      description={t('admin.sections.users')}
      permissions={['users.read', 'users.manage']}
    >
      <UsersList />
    </ListPageFrame>
  );
}

function UsersList() {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const canManage = useHasAnyPermission(['users.manage']);
  const [isInviteOpen, setIsInviteOpen] = useState(false);
  const params = useListParams({
    sorts: ['name', 'email', 'createdAt', 'lastSignInAt', 'status'],
    defaultSort: 'name',
    filters: { role: null, status: statuses },
  });
  const result = useUsers(params.query);
  const roles = useRoleOptions();

  const columns: ListTableColumn<AdminUser>[] = [
    {
      accessor: 'name',
      title: t('users.columns.name'),
      sortable: true,
      render: (user) => (
        <Stack gap={0} className={classes.person}>
          <Text fw={600} size="sm" className={classes.name} data-testid="user-row-name">
            {user.name}
          </Text>
          <Text size="xs" c="gray.7" className={classes.email} data-testid="user-row-email">
            {user.email}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'roles',
      title: t('users.columns.roles'),
      visibleFrom: 'sm',
      render: (user) =>
        user.roles.length > 0 ? (
          <Group gap={4} data-testid="user-row-roles">
            {user.roles.map((role) => (
              <Badge key={role.id} variant="outline" color="gray" tt="none" fw={500}>
                {role.name[language]}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="gray.7">
            {t('users.noRoles')}
          </Text>
        ),
    },
    {
      accessor: 'status',
      title: t('users.columns.status'),
      sortable: true,
      // Wide enough for the longest status in either language ("Desactivado", "Bloqueado").
      width: 160,
      noWrap: true,
      render: (user) => <UserStatusBadge user={user} />,
    },
    {
      accessor: 'lastSignInAt',
      title: t('users.columns.lastSignIn'),
      sortable: true,
      visibleFrom: 'md',
      noWrap: true,
      render: (user) =>
        user.lastSignInAt ? (
          formatDateTime(user.lastSignInAt, language, timeZone)
        ) : (
          <Text span size="sm" c="gray.7">
            {t('users.never')}
          </Text>
        ),
    },
    {
      accessor: 'createdAt',
      title: t('users.columns.created'),
      sortable: true,
      visibleFrom: 'lg',
      noWrap: true,
      render: (user) => formatDate(user.createdAt, language, timeZone),
    },
  ];

  const roleChoices = [
    { value: '', label: t('users.filters.allRoles') },
    ...(roles.data ?? []).map((role) => ({ value: role.key, label: role.name[language] })),
  ];
  // A role in the address that the list of roles does not (yet) hold still shows as chosen.
  if (params.filters.role && !roleChoices.some((choice) => choice.value === params.filters.role)) {
    roleChoices.push({ value: params.filters.role, label: params.filters.role });
  }

  const toolbar = (
    <>
      <NativeSelect
        className={classes.filter}
        label={t('users.filters.role')}
        value={params.filters.role ?? ''}
        onChange={(event) => params.setFilter('role', event.currentTarget.value || null)}
        data={roleChoices}
        data-testid="users-filter-role"
      />
      <NativeSelect
        className={classes.filter}
        label={t('users.filters.status')}
        value={params.filters.status ?? ''}
        onChange={(event) =>
          params.setFilter('status', statuses.find((status) => status === event.currentTarget.value) ?? null)
        }
        data={[
          { value: '', label: t('users.filters.allStatuses') },
          ...statuses.map((status) => ({ value: status, label: t(`users.status.${status}`) })),
        ]}
        data-testid="users-filter-status"
      />
      <Group gap="sm" className={classes.actions}>
        <Button
          component="a"
          href={usersExportUrl(params.exportQuery)}
          download
          variant="default"
          leftSection={<IconDownload size={18} />}
          data-testid="users-export"
        >
          {t('listTable.exportCsv')}
        </Button>
        {canManage ? (
          <Button
            leftSection={<IconUserPlus size={18} />}
            onClick={() => setIsInviteOpen(true)}
            data-testid="users-invite"
          >
            {t('users.invite.open')}
          </Button>
        ) : null}
      </Group>
    </>
  );

  return (
    <ListPage
      title={t('admin.nav.users')}
      description={t('admin.sections.users')}
      searchPlaceholder={t('users.searchPlaceholder')}
      query={result}
      params={params}
      testId="users-table"
      columns={columns}
      emptyText={t('users.empty')}
      getRowHref={(user) => `/admin/users/${user.id}`}
      toolbar={toolbar}
    >
      {canManage ? (
        <InviteUserModal
          opened={isInviteOpen}
          onClose={() => setIsInviteOpen(false)}
          roles={roles.data ?? []}
        />
      ) : null}
    </ListPage>
  );
}
