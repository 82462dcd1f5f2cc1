import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import { Badge, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { GlobalSearchResponse } from '@telemedicina/shared/search';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { appointmentStatusColors } from '../../../lib/appointment-status';
import { useApiErrorText } from '../../../lib/error-text';
import { formatDateTime } from '../../../lib/format';
import { uiState, useLanguage, useSearchText } from '../../../lib/ui-state';
import { minSearchLength, useGlobalSearch } from '../api/global-search';
import classes from './GlobalSearch.module.css';
import { useMediaMatch } from '../../../lib/use-media-match';
import { useViewerTimeZone } from '../../../lib/use-clock';

/** Wait after the last keystroke before asking the server. */
export const searchDebounceMs = 300;

/** Where a hit's option leads. */
export function searchHitPath(value: string): string | null {
  const [kind, id] = value.split(':', 2);
  if (!id) {
    return null;
  }
  // Patients are user accounts: their admin page is the user's until a patient page exists.
  if (kind === 'user' || kind === 'patient') {
    return `/admin/users/${encodeURIComponent(id)}`;
  }
  return kind === 'appointment' ? `/admin/appointments/${encodeURIComponent(id)}` : null;
}

/** True when the answer holds at least one hit in a group the session may see. */
export function hasSearchHits(result: GlobalSearchResponse): boolean {
  return (
    (result.users?.length ?? 0) + (result.patients?.length ?? 0) + (result.appointments?.length ?? 0) > 0
  );
}

/**
 * The header's global search: the box is bound to the shared `searchText`; 300 ms after typing
 * stops (two characters at least) it asks `GET /search` and lists the hits grouped as Users,
 * Patients and Appointments — only the groups the server returned. Arrow keys move through the
 * hits, Enter opens the selected one, Escape closes the list.
 */
export function GlobalSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const searchText = useSearchText();
  const setSearchText = uiState((state) => state.setSearchText);
  const [debounced] = useDebouncedValue(searchText.trim(), searchDebounceMs);
  const isWide = useMediaMatch('(min-width: 48em)');
  const query = debounced.length >= minSearchLength ? debounced : '';
  const result = useGlobalSearch(query);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const isTyping = searchText.trim() !== debounced;
  const isLongEnough = searchText.trim().length >= minSearchLength;

  useEffect(() => {
    // A new answer: the first hit is selected, so Enter opens it.
    if (result.data && !result.isPlaceholderData) {
      combobox.selectFirstOption();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the store is stable; only new data matters
  }, [result.data, result.isPlaceholderData]);

  const handleSubmit = (value: string) => {
    const path = searchHitPath(value);
    if (!path) {
      return;
    }
    combobox.closeDropdown();
    void navigate(path);
  };

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={handleSubmit}
      withinPortal
      position="bottom-start"
      width={isWide ? 'target' : 'calc(100vw - 16px)'}
      offset={6}
      shadow="md"
      radius="md"
      // The header is fixed: the box never scrolls away, so the list need not hide "detached".
      hideDetached={false}
      // Mounted only while open: a list kept hidden in the page is positioned on every page load
      // (a forced style recalculation in the middle of the first render).
      keepMounted={false}
    >
      <Combobox.Target>
        <TextInput
          value={searchText}
          onChange={(event) => {
            setSearchText(event.currentTarget.value);
            combobox.openDropdown();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onKeyDown={(event) => {
            if (event.key === 'Escape' && !combobox.dropdownOpened && searchText !== '') {
              setSearchText('');
            }
          }}
          placeholder={t('admin.header.searchPlaceholder')}
          aria-label={t('admin.header.searchLabel')}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={result.isFetching || (isTyping && isLongEnough) ? <Loader size={14} /> : null}
          radius="xl"
          type="search"
          autoComplete="off"
          data-testid="global-search"
        />
      </Combobox.Target>
      <Combobox.Dropdown
        hidden={!isLongEnough}
        className={classes.dropdown}
        data-testid="global-search-results"
      >
        <Combobox.Options aria-label={t('globalSearch.resultsLabel')}>
          <SearchResults
            result={result.data}
            error={result.isError ? result.error : null}
            isLoading={!result.data && (result.isFetching || isTyping)}
            q={debounced}
          />
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}

function SearchResults({
  result,
  error,
  isLoading,
  q,
}: {
  result: GlobalSearchResponse | undefined;
  error: unknown;
  isLoading: boolean;
  q: string;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const timeZone = useViewerTimeZone();

  if (error) {
    return (
      <Combobox.Empty data-testid="global-search-error">
        <Text size="sm" c="red.8">
          {errorText(error)}
        </Text>
      </Combobox.Empty>
    );
  }
  if (!result) {
    return isLoading ? <Combobox.Empty>{t('globalSearch.searching')}</Combobox.Empty> : null;
  }
  if (!hasSearchHits(result)) {
    return (
      <Combobox.Empty data-testid="global-search-empty">{t('globalSearch.noResults', { q })}</Combobox.Empty>
    );
  }

  return (
    <>
      {result.users && result.users.length > 0 ? (
        <Combobox.Group label={t('globalSearch.groups.users')} data-testid="global-search-group-users">
          {result.users.map((user) => (
            <Combobox.Option
              key={user.id}
              value={`user:${user.id}`}
              className={classes.option}
              data-testid="global-search-option"
            >
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <div className={classes.hitText}>
                  <Text size="sm" fw={600} truncate>
                    {user.name}
                  </Text>
                  <Text size="xs" c="gray.7" truncate>
                    {user.email}
                  </Text>
                </div>
                <Group gap={4} wrap="nowrap" className={classes.roles}>
                  {user.roles.slice(0, 2).map((role) => (
                    <Badge key={role.id} size="xs" variant="light" tt="none">
                      {role.name[language]}
                    </Badge>
                  ))}
                </Group>
              </Group>
            </Combobox.Option>
          ))}
        </Combobox.Group>
      ) : null}
      {result.patients && result.patients.length > 0 ? (
        <Combobox.Group label={t('globalSearch.groups.patients')} data-testid="global-search-group-patients">
          {result.patients.map((patient) => (
            <Combobox.Option
              key={patient.id}
              value={`patient:${patient.id}`}
              className={classes.option}
              data-testid="global-search-option"
            >
              <div className={classes.hitText}>
                <Text size="sm" fw={600} truncate>
                  {patient.name}
                </Text>
                <Text size="xs" c="gray.7" truncate>
                  {patient.email}
                </Text>
              </div>
            </Combobox.Option>
          ))}
        </Combobox.Group>
      ) : null}
      {result.appointments && result.appointments.length > 0 ? (
        <Combobox.Group
          label={t('globalSearch.groups.appointments')}
          data-testid="global-search-group-appointments"
        >
          {result.appointments.map((appointment) => (
            <Combobox.Option
              key={appointment.id}
              value={`appointment:${appointment.id}`}
              className={classes.option}
              data-testid="global-search-appointment"
            >
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <div className={classes.hitText}>
                  <Text size="sm" fw={600} truncate>
                    {formatDateTime(appointment.startsAt, language, timeZone)}
                  </Text>
                  <Text size="xs" c="gray.7" truncate>
                    {t('globalSearch.appointmentPeople', {
                      doctor: appointment.doctorName,
                      patient: appointment.patientName,
                    })}
                  </Text>
                </div>
                <Badge size="xs" variant="light" color={appointmentStatusColors[appointment.status]}>
                  {t(`adminDashboard.status.${appointment.status}`)}
                </Badge>
              </Group>
            </Combobox.Option>
          ))}
        </Combobox.Group>
      ) : null}
    </>
  );
}
