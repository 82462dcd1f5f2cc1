import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import { Badge, Button, NativeSelect, Stack, Switch, Text } from '@mantine/core';
import { languageCodes, type DoctorDirectoryItem } from '@telemedicina/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ListSearchInput, ListTable, type ListTableColumn } from '../../../components/list-table';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import {
  dateInZone,
  formatDay,
  formatTime,
  useViewerTimeZone,
  zonesDiffer,
} from '../../../components/slot-picker';
import { useHasAnyPermission, useLanguage } from '../../../lib/ui-state';
import { useListParams } from '../../../lib/use-list-params';
import { useDirectory, useSpecialtyOptions } from '../api/doctors';
import { languageName } from '../language-names';
import { DoctorAvatar } from './DoctorAvatar';
import classes from './Doctors.module.css';
import { formatTimeZoneName } from '../../../lib/clock';

/** A slot's day in the viewer's zone ("lun, 23 nov"). */
function formatSlotDay(startsAt: string, language: string, timeZone: string): string {
  return formatDay(dateInZone(startsAt, timeZone), language);
}

/** Where a directory slot button leads: the doctor's page with the booking dialog open on it. */
export function bookingHref(doctorId: string, startsAt: string): string {
  return `/admin/doctors/${encodeURIComponent(doctorId)}?slot=${encodeURIComponent(startsAt)}`;
}

/**
 * `/admin/doctors`: the doctors directory — search by name, filters (specialty, language, accepting
 * new patients), sort, and each doctor's next free times as buttons that open the booking.
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
  const navigate = useNavigate();
  const viewerZone = useViewerTimeZone();
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

  const columns: ListTableColumn<DoctorDirectoryItem>[] = [
    {
      accessor: 'name',
      title: t('doctors.columns.doctor'),
      sortable: true,
      render: (doctor) => (
        <div className={classes.person}>
          <DoctorAvatar name={doctor.name} photoUrl={doctor.photoUrl} size={44} />
          <Stack gap={2} className={classes.personText}>
            <Text fw={600} size="sm" className={classes.name} data-testid="doctor-row-name">
              {doctor.name}
            </Text>
            <Text size="xs" c="gray.7" data-testid="doctor-row-specialties">
              {doctor.specialties.map((specialty) => specialty.name[language]).join(' · ')}
            </Text>
            {!doctor.acceptsNewPatients ? (
              <Badge size="xs" variant="light" color="gray" tt="none" w="fit-content">
                {t('doctors.notAccepting')}
              </Badge>
            ) : null}
          </Stack>
        </div>
      ),
    },
    {
      accessor: 'languages',
      title: t('doctors.columns.languages'),
      visibleFrom: 'md',
      render: (doctor) => (
        <Text size="sm" data-testid="doctor-row-languages">
          {doctor.languages.map((code) => languageName(code, language)).join(', ')}
        </Text>
      ),
    },
    {
      accessor: 'visitMinutes',
      title: t('doctors.columns.visit'),
      visibleFrom: 'lg',
      noWrap: true,
      render: (doctor) => t('doctors.minutes', { count: doctor.visitMinutes }),
    },
    {
      accessor: 'nextSlots',
      title: t('doctors.columns.nextSlots'),
      sortable: true,
      sortKey: 'nextAvailable',
      render: (doctor) =>
        doctor.nextSlots.length === 0 ? (
          <Text size="sm" c="gray.7">
            {t('doctors.noSlots')}
          </Text>
        ) : (
          <Stack gap={4}>
            <div className={classes.slots}>
              {doctor.nextSlots.map((startsAt) => (
                <Button
                  key={startsAt}
                  size="compact-sm"
                  variant="light"
                  classNames={{ root: classes.slotButton, label: classes.slotLabel }}
                  onClick={() => void navigate(bookingHref(doctor.id, startsAt))}
                  data-testid="doctor-next-slot"
                >
                  <span>{formatSlotDay(startsAt, language, viewerZone)}</span>{' '}
                  <span>{formatTime(startsAt, language, viewerZone)}</span>
                </Button>
              ))}
            </div>
            {zonesDiffer(viewerZone, doctor.timeZone) ? (
              <Text size="xs" c="gray.7" data-testid="doctor-slot-zone">
                {t('doctors.timesIn', { zone: formatTimeZoneName(viewerZone, language) })}
              </Text>
            ) : null}
          </Stack>
        ),
    },
  ];

  const specialtyChoices = [
    { value: '', label: t('doctors.filters.allSpecialties') },
    ...(specialties.data ?? []).map((specialty) => ({
      value: specialty.id,
      label: specialty.name[language],
    })),
  ];

  const toolbar = (
    <>
      <NativeSelect
        className={classes.filter}
        label={t('doctors.filters.specialty')}
        value={params.filters.specialtyId ?? ''}
        onChange={(event) => params.setFilter('specialtyId', event.currentTarget.value || null)}
        data={specialtyChoices}
        data-testid="doctors-filter-specialty"
      />
      <NativeSelect
        className={classes.filter}
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
        className={classes.filter}
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
        className={classes.toggle}
        label={t('doctors.filters.acceptsNewPatients')}
        checked={params.filters.acceptsNewPatients === 'true'}
        onChange={(event) =>
          params.setFilter('acceptsNewPatients', event.currentTarget.checked ? 'true' : null)
        }
        data-testid="doctors-filter-accepting"
      />
    </>
  );

  return (
    <>
      <SectionHeader title={t('admin.nav.doctors')} description={t('admin.sections.doctors')}>
        <ListSearchInput
          params={params}
          section={t('admin.nav.doctors')}
          placeholder={t('doctors.searchPlaceholder')}
        />
      </SectionHeader>
      <ListTable
        label={t('admin.nav.doctors')}
        testId="doctors-table"
        records={result.data?.data}
        total={result.data?.total}
        columns={columns}
        params={params}
        isLoading={result.isPending}
        isFetching={result.isFetching && !result.isPending}
        error={result.isError ? result.error : undefined}
        onRetry={() => void result.refetch()}
        emptyText={t('doctors.empty')}
        getRowHref={(doctor) => `/admin/doctors/${doctor.id}`}
        toolbar={toolbar}
      />
    </>
  );
}
