import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Badge, Button, NativeSelect, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { Specialty } from '@telemedicina/shared/admin';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ListPage, ListPageFrame } from '../../../components/list-page';
import type { ListTableColumn } from '../../../components/list-table';
import { useLanguage } from '../../../lib/ui-state';
import { useListParams } from '../../../lib/use-list-params';
import { useSpecialties } from '../api/get-specialties';
import classes from './Specialties.module.css';
import { SpecialtyModal } from './SpecialtyModal';

const activeChoices = ['true', 'false'] as const;

/**
 * `/admin/specialties`: the catalogue of specialties (Spanish and English names, active flag, how
 * many doctors have each), searchable, filtered by active state, sorted and paged. A row opens its
 * edit dialog (`?edit=<id>`, so it can be linked); "New specialty" opens an empty one. Needs
 * `specialties.manage`.
 */
export function SpecialtiesPage() {
  const { t } = useTranslation();
  return (
    <ListPageFrame
      testId="specialties-page"
      title={t('admin.nav.specialties')}
      description={t('admin.sections.specialties')}
      permissions={['specialties.manage']}
    >
      <SpecialtiesList />
    </ListPageFrame>
  );
}

function SpecialtiesList() {
  const { t } = useTranslation();
  const language = useLanguage();
  const format = new Intl.NumberFormat(language);
  const [searchParams, setSearchParams] = useSearchParams();
  const [isCreateOpen, setIsCreateOpen] = useState(false);
  const params = useListParams({
    sorts: ['nameEs', 'nameEn', 'doctorCount', 'createdAt'],
    defaultSort: 'nameEs',
    filters: { active: activeChoices },
  });
  const { sort, ...rest } = params.query;
  const result = useSpecialties({
    ...rest,
    sort: sort === 'nameEs' || sort === 'nameEn' ? 'name' : sort,
    language: sort === 'nameEn' ? 'en' : sort === 'nameEs' ? 'es' : undefined,
  });

  const editId = searchParams.get('edit');
  const editing = editId ? (result.data?.data.find((specialty) => specialty.id === editId) ?? null) : null;
  const editHref = (specialty: Specialty) => {
    const next = new URLSearchParams(searchParams);
    next.set('edit', specialty.id);
    return `?${next.toString()}`;
  };
  const closeEdit = () =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('edit');
        return next;
      },
      { replace: true },
    );

  const columns: ListTableColumn<Specialty>[] = [
    {
      accessor: 'nameEs',
      title: t('specialties.columns.nameEs'),
      sortable: true,
      render: (specialty) => (
        <>
          <Text fw={600} size="sm" lang="es" data-testid="specialty-row-name-es">
            {specialty.name.es}
          </Text>
          <Text size="xs" c="gray.7" lang="en" hiddenFrom="sm">
            {specialty.name.en}
          </Text>
          <Text size="xs" c="gray.7" hiddenFrom="xs" data-testid="specialty-row-doctors-phone">
            {t('specialties.doctorsCount', { number: format.format(specialty.doctorCount) })}
          </Text>
        </>
      ),
    },
    {
      accessor: 'nameEn',
      title: t('specialties.columns.nameEn'),
      sortable: true,
      visibleFrom: 'sm',
      render: (specialty) => (
        <Text size="sm" lang="en" data-testid="specialty-row-name-en">
          {specialty.name.en}
        </Text>
      ),
    },
    {
      accessor: 'active',
      title: t('specialties.columns.active'),
      render: (specialty) => (
        <Badge
          variant="light"
          color={specialty.active ? 'teal' : 'gray'}
          tt="none"
          data-testid="specialty-row-active"
          data-active={specialty.active}
        >
          {specialty.active ? t('specialties.active') : t('specialties.inactive')}
        </Badge>
      ),
    },
    {
      accessor: 'doctorCount',
      title: t('specialties.columns.doctors'),
      sortable: true,
      textAlign: 'right',
      visibleFrom: 'xs',
      width: 124,
      render: (specialty) => (
        <span data-testid="specialty-row-doctors">{format.format(specialty.doctorCount)}</span>
      ),
    },
  ];

  return (
    <ListPage
      title={t('admin.nav.specialties')}
      description={t('admin.sections.specialties')}
      searchPlaceholder={t('specialties.searchPlaceholder')}
      query={result}
      params={params}
      testId="specialties-table"
      columns={columns}
      emptyText={t('specialties.empty')}
      getRowHref={editHref}
      toolbar={
        <>
          <NativeSelect
            className={classes.filter}
            label={t('specialties.filters.state')}
            value={params.filters.active ?? ''}
            onChange={(event) =>
              params.setFilter(
                'active',
                activeChoices.find((value) => value === event.currentTarget.value) ?? null,
              )
            }
            data={[
              { value: '', label: t('specialties.filters.all') },
              { value: 'true', label: t('specialties.filters.active') },
              { value: 'false', label: t('specialties.filters.inactive') },
            ]}
            data-testid="specialties-filter-active"
          />
          <Button
            className={classes.createButton}
            leftSection={<IconPlus size={18} />}
            onClick={() => setIsCreateOpen(true)}
            data-testid="specialties-create"
          >
            {t('specialties.create')}
          </Button>
        </>
      }
    >
      <SpecialtyModal opened={isCreateOpen} specialty={null} onClose={() => setIsCreateOpen(false)} />
      <SpecialtyModal opened={editing !== null} specialty={editing} onClose={closeEdit} />
    </ListPage>
  );
}
