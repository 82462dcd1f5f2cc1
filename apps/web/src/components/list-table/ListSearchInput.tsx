import '@mantine/core/styles/Input.layer.css';
import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import classes from './ListTable.module.css';

export interface ListSearchInputProps {
  /** `useListParams(...)` (its `searchText` and `setSearchText`). */
  params: { searchText: string; setSearchText: (text: string) => void };
  /** The section's name, for the accessible label ("Search in Users"). */
  section: string;
  /** What can be searched ("Name, email or role"); defaults to the generic section hint. */
  placeholder?: string;
}

/**
 * The section search box ("section search text" of the shared UI state) bound to a list: typing
 * updates the box at once and the list's `q` after the debounce. Sits in the section header.
 */
export function ListSearchInput({ params, section, placeholder }: ListSearchInputProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      className={classes.search}
      value={params.searchText}
      onChange={(event) => params.setSearchText(event.currentTarget.value)}
      placeholder={placeholder ?? t('admin.section.searchPlaceholder')}
      aria-label={t('admin.section.searchLabel', { section })}
      leftSection={<IconSearch size={16} aria-hidden />}
      type="search"
      data-testid="section-search"
    />
  );
}
