import '@mantine/core/styles/Badge.layer.css';
import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { Role } from '@telemedicina/shared/admin';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListPage, ListPageFrame } from '../../../components/list-page';
import type { ListTableColumn } from '../../../components/list-table';
import { useLanguage } from '../../../lib/ui-state';
import { useListParams } from '../../../lib/use-list-params';
import { useRoles } from '../api/get-roles';
import { CreateRoleModal } from './CreateRoleModal';
import classes from './Roles.module.css';

/**
 * `/admin/roles`: the roles — name in the reader's language, key, system badge, how many
 * permissions and users — searchable, sorted and paged; "New role" opens the editor once created.
 * A row opens the role's editor. Needs `roles.manage`.
 */
export function RolesPage() {
  const { t } = useTranslation();
  return (
    <ListPageFrame
      testId="roles-page"
      title={t('admin.nav.roles')}
      description={t('admin.sections.roles')}
      permissions={['roles.manage']}
    >
      <RolesList />
    </ListPageFrame>
  );
}

function RolesList() {
  const { t } = useTranslation();
  const language = useLanguage();
  const format = new Intl.NumberFormat(language);
  const [isCreateOpen, setIsCreateOpen] = useState(false);
  const params = useListParams({ sorts: ['name', 'key', 'userCount', 'createdAt'], defaultSort: 'name' });
  const result = useRoles(params.query);

  const columns: ListTableColumn<Role>[] = [
    {
      accessor: 'name',
      title: t('roles.columns.name'),
      sortable: true,
      render: (role) => (
        <Stack gap={2}>
          <Group gap={8} wrap="wrap">
            <Text fw={600} size="sm" data-testid="role-row-name">
              {role.name[language]}
            </Text>
            {role.system ? (
              <Badge size="xs" variant="light" color="gray" tt="none" data-testid="role-row-system">
                {t('roles.system')}
              </Badge>
            ) : null}
          </Group>
          <Text size="xs" c="gray.7" hiddenFrom="sm" className={classes.key}>
            {role.key}
          </Text>
        </Stack>
      ),
    },
    {
      accessor: 'key',
      title: t('roles.columns.key'),
      sortable: true,
      visibleFrom: 'sm',
      render: (role) => <span className={classes.key}>{role.key}</span>,
    },
    {
      accessor: 'permissions',
      title: t('roles.columns.permissions'),
      textAlign: 'right',
      visibleFrom: 'sm',
      width: 124,
      render: (role) => format.format(role.permissions.length),
    },
    {
      accessor: 'userCount',
      title: t('roles.columns.users'),
      sortable: true,
      textAlign: 'right',
      width: 124,
      render: (role) => <span data-testid="role-row-users">{format.format(role.userCount)}</span>,
    },
  ];

  return (
    <ListPage
      title={t('admin.nav.roles')}
      description={t('admin.sections.roles')}
      searchPlaceholder={t('roles.searchPlaceholder')}
      query={result}
      params={params}
      testId="roles-table"
      columns={columns}
      emptyText={t('roles.empty')}
      getRowHref={(role) => `/admin/roles/${role.id}`}
      toolbar={
        <Button
          className={classes.createButton}
          leftSection={<IconPlus size={18} />}
          onClick={() => setIsCreateOpen(true)}
          data-testid="roles-create"
        >
          {t('roles.create.open')}
        </Button>
      }
    >
      <CreateRoleModal opened={isCreateOpen} onClose={() => setIsCreateOpen(false)} />
    </ListPage>
  );
}
