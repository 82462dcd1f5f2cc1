import { Alert, Paper, Skeleton, Stack, Text, TextInput, ThemeIcon } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDatabaseOff, IconLock, IconSearch } from '@tabler/icons-react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { data, useParams, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import { Pagination } from '../../../components/pagination/Pagination';
import { ApiError, apiErrorMessageKey } from '../../../lib/api-client';
import { uiState, useHasAnyPermission, useSectionSearchText } from '../../../lib/ui-state';
import { useSectionPage } from '../api/get-section-page';
import { isListSectionKey, listSections, type ListSectionKey } from '../navigation';
import { SectionHeader } from './SectionHeader';
import classes from './SectionPage.module.css';

export const sectionPageSize = 20;

/** Unknown sections are a 404, answered by the application's "not found" page. */
export function listSectionLoader({ params }: LoaderFunctionArgs) {
  if (!isListSectionKey(params.section)) {
    // React Router's way to hand a 404 to the route's error element.
    // eslint-disable-next-line @typescript-eslint/only-throw-error
    throw data(null, { status: 404 });
  }
  return null;
}

/**
 * A list section: its own search box ("section search text") and the pagination over the
 * server's real data. Until the server offers the list, or when it is empty, nothing is paginated.
 */
export function ListSectionPage() {
  const { section } = useParams();
  return isListSectionKey(section) ? <ListSection key={section} sectionKey={section} /> : null;
}

function ListSection({ sectionKey }: { sectionKey: ListSectionKey }) {
  const { t } = useTranslation();
  const section = listSections[sectionKey];
  const isAllowed = useHasAnyPermission(section.anyOf);
  const sectionSearchText = useSectionSearchText();
  const setSectionSearchText = uiState((state) => state.setSectionSearchText);
  const [q] = useDebouncedValue(sectionSearchText.trim(), 300);
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(searchParams.get('page') ?? '1', 10) || 1);
  const result = useSectionPage(
    { endpoint: section.endpoint, page, pageSize: sectionPageSize, q },
    isAllowed,
  );

  useEffect(() => {
    // Each section starts with an empty search box.
    setSectionSearchText('');
  }, [sectionKey, setSectionSearchText]);

  const handleSearchChange = (value: string) => {
    setSectionSearchText(value);
    if (searchParams.has('page')) {
      setSearchParams({}, { replace: true });
    }
  };

  return (
    <div className={classes.page} data-testid={`admin-section-${sectionKey}`}>
      <SectionHeader title={t(`admin.nav.${sectionKey}`)} description={t(`admin.sections.${sectionKey}`)}>
        <TextInput
          className={classes.search}
          value={sectionSearchText}
          onChange={(event) => handleSearchChange(event.currentTarget.value)}
          placeholder={t('admin.section.searchPlaceholder')}
          aria-label={t('admin.section.searchLabel', { section: t(`admin.nav.${sectionKey}`) })}
          leftSection={<IconSearch size={16} aria-hidden />}
          type="search"
          disabled={!isAllowed}
          data-testid="section-search"
        />
      </SectionHeader>

      {!isAllowed ? (
        <Alert
          color="gray"
          variant="light"
          icon={<IconLock />}
          title={t('admin.section.forbiddenTitle')}
          data-testid="section-forbidden"
        >
          {t('admin.section.forbidden')}
        </Alert>
      ) : result.isPending ? (
        <Stack gap="xs" aria-busy="true">
          {[0, 1, 2].map((index) => (
            <Skeleton key={index} height={52} radius="md" />
          ))}
        </Stack>
      ) : result.isError ? (
        <Paper withBorder radius="lg" p="xl" data-testid="section-unavailable">
          <Stack align="center" gap="xs">
            <ThemeIcon size={52} radius={999} variant="light" color="gray" aria-hidden>
              <IconDatabaseOff size={28} />
            </ThemeIcon>
            <Text fw={650}>{t('admin.section.unavailableTitle')}</Text>
            <Text size="sm" c="gray.7" ta="center" maw={420}>
              {result.error instanceof ApiError
                ? result.error.status === 404
                  ? t('admin.section.unavailable')
                  : t(apiErrorMessageKey(result.error))
                : t('admin.section.unexpected')}
            </Text>
          </Stack>
        </Paper>
      ) : result.data.data.length === 0 ? (
        <Paper withBorder radius="lg" p="xl" data-testid="section-empty">
          <Text ta="center" c="gray.7">
            {q ? t('admin.section.noMatches', { q }) : t('admin.section.empty')}
          </Text>
        </Paper>
      ) : (
        <Stack gap="lg">
          <Paper withBorder radius="lg" component="ul" className={classes.list} data-testid="section-items">
            {result.data.data.map((item, index) => {
              const { primary, secondary } = describeItem(item);
              return (
                <li
                  key={typeof item.id === 'string' || typeof item.id === 'number' ? item.id : index}
                  className={classes.row}
                >
                  <Text fw={600} truncate="end">
                    {primary}
                  </Text>
                  {secondary ? (
                    <Text size="sm" c="gray.7" truncate="end">
                      {secondary}
                    </Text>
                  ) : null}
                </li>
              );
            })}
          </Paper>
          <Pagination
            total={result.data.total}
            page={result.data.page}
            pageSize={result.data.pageSize}
            onPageChange={(next) => setSearchParams(next > 1 ? { page: String(next) } : {})}
            getPageHref={(next) => (next > 1 ? `?page=${next}` : '?')}
          />
        </Stack>
      )}
    </div>
  );
}

const primaryKeys = ['name', 'displayName', 'fullName', 'title', 'email', 'action', 'id'];
const secondaryKeys = ['email', 'description', 'role', 'occurredAt', 'createdAt'];

/** Picks readable fields of a list row whose exact shape each section's own issue will define. */
export function describeItem(item: Record<string, unknown>): { primary: string; secondary: string | null } {
  const pick = (keys: readonly string[], except?: string) =>
    keys
      .map((key) => item[key])
      .map((value) => (typeof value === 'number' ? String(value) : value))
      .find((value): value is string => typeof value === 'string' && value.trim() !== '' && value !== except);
  const primary = pick(primaryKeys) ?? '—';
  return { primary, secondary: pick(secondaryKeys, primary) ?? null };
}
