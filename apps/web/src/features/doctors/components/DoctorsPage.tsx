import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Drawer.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import {
  Alert,
  Button,
  Drawer,
  NativeSelect,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { languageCodes } from '@telemedicina/shared/doctors';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeRange, ListSearchInput } from '../../../components/list-table';
import { Pagination } from '../../../components/pagination/Pagination';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useApiErrorText } from '../../../lib/error-text';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useListParams } from '../../../lib/use-list-params';
import { useDirectory, useSpecialtyOptions } from '../api/doctors';
import { languageName } from '../language-names';
import { DoctorCard } from './DoctorCard';
import classes from './Doctors.module.css';

/** Below this width the filters move into a sheet opened by one button (the search stays in view). */
const phoneQuery = '(max-width: 47.99em)';

/**
 * `/portal/doctors` and `/admin/doctors`: the doctors directory — the patient's first step of booking. Search by name,
 * filters (specialty, language, accepting new patients) and sort inline on a desktop and in a
 * bottom sheet on a phone; each doctor a card (a grid on a desktop, one column on a phone) with
 * the next free times as links straight into the booking of that time.
 */
export function DoctorsPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['doctors.read']);
  return (
    <div className={pageClasses.page} data-testid="doctors-page">
      {isAllowed ? (
        <DoctorsDirectory />
      ) : (
        <>
          <SectionHeader title={t('admin.nav.doctors')} description={t('admin.sections.doctors')} />
          <SectionForbidden />
        </>
      )}
    </div>
  );
}

function DoctorsDirectory() {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const isPhone = useMediaQuery(phoneQuery, false, { getInitialValueInEffect: false }) ?? false;
  const [isSheetOpen, setIsSheetOpen] = useState(false);
  const params = useListParams({
    sorts: ['name', 'nextAvailable'],
    defaultSort: 'name',
    filters: { specialtyId: null, language: languageCodes, acceptsNewPatients: ['true'] },
  });
  const result = useDirectory({
    ...params.query,
    acceptsNewPatients: params.filters.acceptsNewPatients,
  });
  const specialties = useSpecialtyOptions(language);
  const languageChoices = useMemo(
    () =>
      languageCodes
        .map((code) => ({ value: code, label: languageName(code, language) }))
        .sort((a, b) => a.label.localeCompare(b.label, language)),
    [language],
  );
  const specialtyChoices = [
    { value: '', label: t('doctors.filters.allSpecialties') },
    ...(specialties.data ?? []).map((specialty) => ({
      value: specialty.id,
      label: specialty.name[language],
    })),
  ];
  const activeFilters = [
    params.filters.specialtyId,
    params.filters.language,
    params.filters.acceptsNewPatients,
  ].filter((value) => value !== null && value !== undefined).length;

  const filters = (isSheet: boolean) => (
    <>
      <NativeSelect
        className={isSheet ? undefined : classes.filter}
        label={t('doctors.filters.specialty')}
        value={params.filters.specialtyId ?? ''}
        onChange={(event) => params.setFilter('specialtyId', event.currentTarget.value || null)}
        data={specialtyChoices}
        data-testid="doctors-filter-specialty"
      />
      <NativeSelect
        className={isSheet ? undefined : classes.filter}
        label={t('doctors.filters.language')}
        value={params.filters.language ?? ''}
        onChange={(event) =>
          params.setFilter(
            'language',
            languageCodes.find((code) => code === event.currentTarget.value) ?? null,
          )
        }
        data={[{ value: '', label: t('doctors.filters.allLanguages') }, ...languageChoices]}
        data-testid="doctors-filter-language"
      />
      <NativeSelect
        className={isSheet ? undefined : classes.filter}
        label={t('doctors.filters.sort')}
        value={params.sort}
        onChange={(event) =>
          params.setSort(event.currentTarget.value === 'nextAvailable' ? 'nextAvailable' : 'name', 'asc')
        }
        data={[
          { value: 'name', label: t('doctors.sort.name') },
          { value: 'nextAvailable', label: t('doctors.sort.nextAvailable') },
        ]}
        data-testid="doctors-sort"
      />
      <Switch
        className={isSheet ? undefined : classes.toggle}
        label={t('doctors.filters.acceptsNewPatients')}
        checked={params.filters.acceptsNewPatients === 'true'}
        onChange={(event) =>
          params.setFilter('acceptsNewPatients', event.currentTarget.checked ? 'true' : null)
        }
        data-testid="doctors-filter-accepting"
      />
    </>
  );

  const rows = result.data?.data ?? [];
  const total = result.data?.total ?? 0;
  let body;
  if (result.isError) {
    body = (
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertTriangle />}
        title={t('listTable.errorTitle')}
        data-testid="list-error"
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{errorText(result.error)}</Text>
          <Button
            variant="default"
            size="xs"
            leftSection={<IconRefresh size={16} />}
            onClick={() => void result.refetch()}
            data-testid="list-retry"
          >
            {t('listTable.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  } else if (result.isPending) {
    body = (
      <div className={classes.grid} aria-busy="true" data-testid="list-loading">
        <VisuallyHidden>{t('listTable.loading')}</VisuallyHidden>
        {[0, 1, 2].map((index) => (
          <Skeleton key={index} height={220} radius="lg" />
        ))}
      </div>
    );
  } else if (rows.length === 0) {
    body = (
      <Paper withBorder radius="lg" p="xl" data-testid={params.isFiltered ? 'list-no-matches' : 'list-empty'}>
        <Stack align="center" gap="sm">
          <Text ta="center" c="gray.7">
            {!params.isFiltered
              ? t('doctors.empty')
              : params.q
                ? t('listTable.noMatchesFor', { q: params.q })
                : t('listTable.noMatches')}
          </Text>
          {params.isFiltered ? (
            <Button variant="subtle" size="xs" onClick={params.clearFilters} data-testid="list-clear-filters">
              {t('listTable.clearFilters')}
            </Button>
          ) : null}
        </Stack>
      </Paper>
    );
  } else {
    body = (
      <ul
        className={classes.grid}
        aria-label={t('admin.nav.doctors')}
        aria-busy={result.isFetching ? 'true' : undefined}
        data-testid="doctors-cards"
      >
        {rows.map((doctor) => (
          <DoctorCard key={doctor.id} doctor={doctor} />
        ))}
      </ul>
    );
  }

  const range = describeRange(params.page, params.pageSize, total, language);

  return (
    <>
      <SectionHeader title={t('admin.nav.doctors')} description={t('admin.sections.doctors')}>
        <ListSearchInput
          params={params}
          section={t('admin.nav.doctors')}
          placeholder={t('doctors.searchPlaceholder')}
        />
      </SectionHeader>
      <Stack gap="md" data-testid="doctors-table">
        {isPhone ? (
          <>
            <Button
              variant="default"
              leftSection={<IconAdjustmentsHorizontal size={18} aria-hidden />}
              onClick={() => setIsSheetOpen(true)}
              className={classes.filtersButton}
              data-testid="doctors-filters-open"
            >
              {activeFilters > 0
                ? t('doctors.filters.openWithCount', { count: activeFilters })
                : t('doctors.filters.open')}
            </Button>
            <Drawer
              opened={isSheetOpen}
              onClose={() => setIsSheetOpen(false)}
              position="bottom"
              size="auto"
              styles={{ content: { height: 'auto', maxHeight: '90dvh', flex: '0 0 100%' } }}
              radius="lg"
              title={t('doctors.filters.title')}
              closeButtonProps={{ 'aria-label': t('doctors.filters.close') }}
              data-testid="doctors-filters-sheet"
            >
              <Stack gap="md" pb="md">
                {filters(true)}
                <Button onClick={() => setIsSheetOpen(false)} data-testid="doctors-filters-done">
                  {result.data
                    ? t('doctors.filters.showResults', { count: total })
                    : t('doctors.filters.close')}
                </Button>
              </Stack>
            </Drawer>
          </>
        ) : (
          <div className={classes.toolbar} data-testid="doctors-filters">
            {filters(false)}
          </div>
        )}
        {body}
        {!result.isError && total > 0 ? (
          <div className={classes.footer}>
            <Text size="sm" c="gray.7" aria-live="polite" data-testid="list-total">
              {t('listTable.range', range)}
            </Text>
            <Pagination
              total={total}
              page={params.page}
              pageSize={params.pageSize}
              onPageChange={(next) => params.setPage(next)}
              getPageHref={params.pageHref}
            />
          </div>
        ) : null}
      </Stack>
    </>
  );
}
