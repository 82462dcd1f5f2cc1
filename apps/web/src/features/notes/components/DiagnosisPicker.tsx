import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import { ActionIcon, Badge, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconSearch, IconStar, IconTrash } from '@tabler/icons-react';
import { noteMaxDiagnoses, type NoteDiagnosis } from '@telemedicina/shared/notes';
import type { Diagnosis } from '@telemedicina/shared/prescriptions';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiErrorText } from '../../../lib/error-text';
import { useLanguage } from '../../../lib/ui-state';
import { useDiagnosisSearch } from '../api/search-diagnoses';
import classes from './Notes.module.css';

/** Waiting this long after the last key before searching keeps the catalogue from being asked per letter. */
export const diagnosisSearchDebounceMs = 250;

export interface DiagnosisPickerProps {
  value: readonly NoteDiagnosis[];
  /** The whole new list, in order; at most one primary. */
  onChange: (items: NoteDiagnosis[]) => void;
  isDisabled?: boolean;
}

/** A diagnosis's name in the reader's language. */
export function diagnosisName(item: { nameEs: string; nameEn: string }, language: string): string {
  return language === 'es' ? item.nameEs : item.nameEn;
}

/**
 * The note's diagnoses: a debounced search of the catalogue (code or words in either language),
 * then an ordered list where one can be marked primary, moved up or down, or removed. The first
 * diagnosis added becomes primary when none is.
 */
export function DiagnosisPicker({ value, onChange, isDisabled = false }: DiagnosisPickerProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const errorText = useApiErrorText();
  const [query, setQuery] = useState('');
  const [debounced] = useDebouncedValue(query.trim(), diagnosisSearchDebounceMs);
  const search = useDiagnosisSearch(debounced);
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const isFull = value.length >= noteMaxDiagnoses;
  const chosen = new Set(value.map((item) => item.code));
  const results = (search.data ?? []).filter((item) => !chosen.has(item.code));

  const handleAdd = (diagnosis: Diagnosis) => {
    if (chosen.has(diagnosis.code) || isFull) {
      return;
    }
    const hasPrimary = value.some((item) => item.primary);
    onChange([...value, { ...diagnosis, primary: !hasPrimary }]);
    setQuery('');
    combobox.closeDropdown();
  };
  const handlePrimary = (code: string) =>
    onChange(value.map((item) => ({ ...item, primary: item.code === code })));
  const handleRemove = (code: string) => onChange(value.filter((item) => item.code !== code));
  const handleMove = (index: number, offset: -1 | 1) => {
    const target = index + offset;
    if (target < 0 || target >= value.length) {
      return;
    }
    const next = [...value];
    const [moved] = next.splice(index, 1);
    if (moved) {
      next.splice(target, 0, moved);
    }
    onChange(next);
  };

  return (
    <div data-testid="note-diagnoses">
      <Combobox
        store={combobox}
        // The list stays open while the page scrolls under it (the note is a long page).
        hideDetached={false}
        onOptionSubmit={(code) => {
          const found = results.find((item) => item.code === code);
          if (found) {
            handleAdd(found);
          }
        }}
      >
        <Combobox.Target>
          <TextInput
            label={t('notes.diagnoses.search')}
            description={isFull ? t('notes.diagnoses.full', { count: noteMaxDiagnoses }) : undefined}
            placeholder={t('notes.diagnoses.searchPlaceholder')}
            leftSection={<IconSearch size={16} />}
            rightSection={search.isFetching ? <Loader size={14} /> : null}
            value={query}
            disabled={isDisabled || isFull}
            onChange={(event) => {
              setQuery(event.currentTarget.value);
              combobox.openDropdown();
              combobox.updateSelectedOptionIndex();
            }}
            onFocus={() => combobox.openDropdown()}
            onBlur={() => combobox.closeDropdown()}
            data-testid="note-diagnosis-search"
          />
        </Combobox.Target>
        <Combobox.Dropdown hidden={debounced === ''}>
          <Combobox.Options aria-label={t('notes.diagnoses.results')} mah={260} style={{ overflowY: 'auto' }}>
            {search.isError ? (
              <Combobox.Empty>{errorText(search.error)}</Combobox.Empty>
            ) : results.length === 0 ? (
              <Combobox.Empty>
                {search.isFetching ? t('notes.diagnoses.searching') : t('notes.diagnoses.noResults')}
              </Combobox.Empty>
            ) : (
              results.map((item) => (
                <Combobox.Option value={item.code} key={item.code} data-testid="note-diagnosis-option">
                  <Group gap={8} wrap="nowrap" align="flex-start">
                    <Badge variant="light" tt="none" style={{ flex: 'none' }}>
                      {item.code}
                    </Badge>
                    <Text size="sm">{diagnosisName(item, language)}</Text>
                  </Group>
                </Combobox.Option>
              ))
            )}
          </Combobox.Options>
        </Combobox.Dropdown>
      </Combobox>
      {value.length === 0 ? (
        <Text size="sm" c="gray.7" mt="xs" data-testid="note-diagnoses-empty">
          {t('notes.diagnoses.none')}
        </Text>
      ) : (
        <ol
          className={classes.diagnosisList}
          style={{ marginTop: 8 }}
          aria-label={t('notes.diagnoses.title')}
        >
          {value.map((item, index) => {
            const name = diagnosisName(item, language);
            return (
              <li
                key={item.code}
                className={classes.diagnosisRow}
                data-testid="note-diagnosis"
                data-code={item.code}
                data-primary={item.primary ? 'true' : 'false'}
              >
                <Badge variant="light" tt="none" style={{ flex: 'none' }}>
                  {item.code}
                </Badge>
                <Text size="sm" className={classes.diagnosisName}>
                  {name}
                  {item.primary ? (
                    <Badge ml={6} size="xs" color="teal" variant="filled" tt="none">
                      {t('notes.diagnoses.primary')}
                    </Badge>
                  ) : null}
                </Text>
                <div className={classes.diagnosisControls}>
                  {item.primary ? null : (
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('notes.diagnoses.makePrimary', { name })}
                      title={t('notes.diagnoses.makePrimary', { name })}
                      disabled={isDisabled}
                      onClick={() => handlePrimary(item.code)}
                      data-testid="note-diagnosis-primary"
                    >
                      <IconStar size={16} />
                    </ActionIcon>
                  )}
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('notes.diagnoses.moveUp', { name })}
                    title={t('notes.diagnoses.moveUp', { name })}
                    disabled={isDisabled || index === 0}
                    onClick={() => handleMove(index, -1)}
                    data-testid="note-diagnosis-up"
                  >
                    <IconArrowUp size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    aria-label={t('notes.diagnoses.moveDown', { name })}
                    title={t('notes.diagnoses.moveDown', { name })}
                    disabled={isDisabled || index === value.length - 1}
                    onClick={() => handleMove(index, 1)}
                    data-testid="note-diagnosis-down"
                  >
                    <IconArrowDown size={16} />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('notes.diagnoses.remove', { name })}
                    title={t('notes.diagnoses.remove', { name })}
                    disabled={isDisabled}
                    onClick={() => handleRemove(item.code)}
                    data-testid="note-diagnosis-remove"
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </div>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

/** Read-only list of a note's diagnoses (signed note, chart). */
export function DiagnosisList({ items }: { items: readonly NoteDiagnosis[] }) {
  const { t } = useTranslation();
  const language = useLanguage();
  if (items.length === 0) {
    return (
      <Text size="sm" c="gray.7">
        {t('notes.diagnoses.none')}
      </Text>
    );
  }
  return (
    <ol className={classes.diagnosisList} aria-label={t('notes.diagnoses.title')}>
      {items.map((item) => (
        <li key={item.code} className={classes.diagnosisRow} data-testid="note-diagnosis">
          <Badge variant="light" tt="none" style={{ flex: 'none' }}>
            {item.code}
          </Badge>
          <Text size="sm" className={classes.diagnosisName}>
            {diagnosisName(item, language)}
            {item.primary ? (
              <Badge ml={6} size="xs" color="teal" variant="filled" tt="none">
                {t('notes.diagnoses.primary')}
              </Badge>
            ) : null}
          </Text>
        </li>
      ))}
    </ol>
  );
}
