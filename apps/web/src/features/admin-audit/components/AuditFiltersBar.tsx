import {
  Autocomplete,
  Button,
  Collapse,
  Group,
  NativeSelect,
  Select,
  Stack,
  Text,
  TextInput,
  type AutocompleteProps,
  type TextInputProps,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { IconDownload, IconFilter, IconFilterOff } from '@tabler/icons-react';
import { auditOutcomeSchema } from '@telemedicina/shared/admin';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DateRangeInput, type DateRange } from '../../../components/date-range-input/DateRangeInput';
import { listSearchDebounceMs } from '../../../lib/use-list-params';
import { auditExportUrl, type AuditFilters } from '../api/get-audit-events';
import { useAuditFacets } from '../api/get-facets';
import type { AuditListParams } from '../audit-filters';
import { useAuditLabels } from '../audit-labels';
import classes from './Audit.module.css';

/**
 * A text filter that types freely and writes to the address after the pause (like the section
 * search box); a change of the address (Back, a link) puts its value back in the box.
 */
function useDebouncedFilter(value: string | undefined, onCommit: (value: string | null) => void) {
  const [text, setText] = useState(value ?? '');
  const [shownValue, setShownValue] = useState(value);
  const [debounced] = useDebouncedValue(text.trim(), listSearchDebounceMs);
  // A new value from the address replaces what the box shows (adjusted while rendering).
  if (value !== shownValue) {
    setShownValue(value);
    if ((value ?? '') !== text.trim()) {
      setText(value ?? '');
    }
  }
  useEffect(() => {
    if (debounced !== (value ?? '') && debounced === text.trim()) {
      onCommit(debounced || null);
    }
    // Only a new debounced value writes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);
  return {
    text,
    setText,
    commitNow: (next: string) => {
      setText(next);
      onCommit(next.trim() || null);
    },
  };
}

function TextFilter({
  value,
  onCommit,
  ...props
}: Omit<TextInputProps, 'value' | 'onChange'> & {
  value: string | undefined;
  onCommit: (value: string | null) => void;
}) {
  const filter = useDebouncedFilter(value, onCommit);
  return (
    <TextInput
      value={filter.text}
      onChange={(event) => filter.setText(event.currentTarget.value)}
      type="search"
      {...props}
    />
  );
}

function ActionFilter({
  value,
  onCommit,
  ...props
}: Omit<AutocompleteProps, 'value' | 'onChange'> & {
  value: string | undefined;
  onCommit: (value: string | null) => void;
}) {
  const filter = useDebouncedFilter(value, onCommit);
  return (
    <Autocomplete
      value={filter.text}
      onChange={filter.setText}
      onOptionSubmit={filter.commitNow}
      limit={50}
      clearable
      comboboxProps={{ withinPortal: true }}
      {...props}
    />
  );
}

/**
 * The audit viewer's filters — actor, action (the log's actions offered), record type and id,
 * outcome, dates — each written to the address; "Export CSV" with the same filters. On phones the
 * filters fold behind one button.
 */
export function AuditFiltersBar({ params, filters }: { params: AuditListParams; filters: AuditFilters }) {
  const { t } = useTranslation();
  const { actionLabel, targetTypeLabel } = useAuditLabels();
  const facets = useAuditFacets();
  const [, setSearchParams] = useSearchParams();
  const isWide = useMediaQuery('(min-width: 48em)', true) ?? true;
  const [isOpen, setIsOpen] = useState(false);
  const [draft, setDraft] = useState<DateRange>([filters.from ?? null, filters.to ?? null]);
  const activeCount = [
    filters.actor,
    filters.action,
    filters.targetType,
    filters.targetId,
    filters.outcome,
    filters.from ?? filters.to,
  ].filter((value) => value !== undefined).length;

  const [shownRange, setShownRange] = useState(`${filters.from ?? ''}/${filters.to ?? ''}`);
  const addressRange = `${filters.from ?? ''}/${filters.to ?? ''}`;
  if (addressRange !== shownRange) {
    // The address changed (Back, "clear filters", a link): the picker follows it.
    setShownRange(addressRange);
    setDraft([filters.from ?? null, filters.to ?? null]);
  }

  const handleDates = (next: DateRange) => {
    setDraft(next);
    const [from, to] = next;
    if ((from && to) || (!from && !to)) {
      // Both ends in one address change (two separate updates would overwrite each other).
      setSearchParams((current) => {
        const updated = new URLSearchParams(current);
        for (const [name, value] of [
          ['from', from],
          ['to', to],
        ] as const) {
          if (value) {
            updated.set(name, value);
          } else {
            updated.delete(name);
          }
        }
        updated.delete('page');
        return updated;
      });
    }
  };

  const targetTypes = facets.data?.targetTypes ?? [];
  const typeChoices =
    filters.targetType && !targetTypes.includes(filters.targetType)
      ? [filters.targetType, ...targetTypes]
      : targetTypes;

  const fields = (
    <div className={classes.filters} data-testid="audit-filters">
      <TextFilter
        label={t('audit.filters.actor')}
        placeholder={t('audit.filters.actorPlaceholder')}
        value={filters.actor}
        onCommit={(value) => params.setFilter('actor', value)}
        data-testid="audit-filter-actor"
      />
      <ActionFilter
        label={t('audit.filters.action')}
        placeholder={t('audit.filters.actionPlaceholder')}
        data={facets.data?.actions ?? []}
        renderOption={({ option }) => (
          <Stack gap={0}>
            <Text size="sm">{actionLabel(option.value)}</Text>
            <Text size="xs" c="gray.7" ff="monospace">
              {option.value}
            </Text>
          </Stack>
        )}
        value={filters.action}
        onCommit={(value) => params.setFilter('action', value)}
        classNames={{ input: classes.monospaceInput }}
        data-testid="audit-filter-action"
      />
      <Select
        label={t('audit.filters.targetType')}
        placeholder={t('audit.filters.any')}
        data={typeChoices.map((value) => ({ value, label: targetTypeLabel(value) }))}
        value={filters.targetType ?? null}
        onChange={(value) => params.setFilter('targetType', value)}
        clearable
        searchable
        nothingFoundMessage={t('audit.filters.noTypes')}
        comboboxProps={{ withinPortal: true }}
        data-testid="audit-filter-target-type"
      />
      <TextFilter
        label={t('audit.filters.targetId')}
        placeholder={t('audit.filters.targetIdPlaceholder')}
        value={filters.targetId}
        onCommit={(value) => params.setFilter('targetId', value)}
        classNames={{ input: classes.monospaceInput }}
        data-testid="audit-filter-target-id"
      />
      <NativeSelect
        label={t('audit.filters.outcome')}
        value={filters.outcome ?? ''}
        onChange={(event) =>
          params.setFilter(
            'outcome',
            auditOutcomeSchema.options.find((outcome) => outcome === event.currentTarget.value) ?? null,
          )
        }
        data={[
          { value: '', label: t('audit.filters.anyOutcome') },
          ...auditOutcomeSchema.options.map((outcome) => ({
            value: outcome,
            label: t(`audit.outcome.${outcome}`),
          })),
        ]}
        data-testid="audit-filter-outcome"
      />
      <DateRangeInput
        label={t('audit.filters.dates')}
        placeholder={t('audit.filters.datesPlaceholder')}
        value={draft}
        onChange={handleDates}
        clearable
        data-testid="audit-filter-dates"
      />
    </div>
  );

  return (
    <div className={classes.toolbar}>
      {isWide ? fields : null}
      <Group gap="sm" justify="space-between" className={classes.toolbarActions}>
        <Group gap="xs">
          {isWide ? null : (
            <Button
              variant="default"
              leftSection={<IconFilter size={18} />}
              onClick={() => setIsOpen((open) => !open)}
              aria-expanded={isOpen}
              data-testid="audit-filters-toggle"
            >
              {activeCount > 0
                ? t('audit.filters.toggleCount', { count: activeCount })
                : t('audit.filters.toggle')}
            </Button>
          )}
          {activeCount > 0 || params.q ? (
            <Button
              variant="subtle"
              leftSection={<IconFilterOff size={18} />}
              onClick={() => {
                setDraft([null, null]);
                params.clearFilters();
              }}
              data-testid="audit-filters-clear"
            >
              {t('audit.filters.clear')}
            </Button>
          ) : null}
        </Group>
        <Button
          component="a"
          href={auditExportUrl(filters)}
          download
          variant="default"
          leftSection={<IconDownload size={18} />}
          data-testid="audit-export"
        >
          {t('listTable.exportCsv')}
        </Button>
      </Group>
      {/* On phones the folded filters open below their button. */}
      {isWide ? null : <Collapse expanded={isOpen}>{fields}</Collapse>}
    </div>
  );
}
