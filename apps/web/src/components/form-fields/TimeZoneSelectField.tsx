import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Select } from '@mantine/core';
import { forwardRef, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { timeZoneOptions } from '../../lib/time-zones';
import type { TimeZoneSelectProps } from './TimeZoneSelect';

/**
 * The select behind `TimeZoneSelect`, in its own chunk: Mantine's Select brings the combobox,
 * popover, scroll area and floating-ui, which the sign-in page must not download.
 */
export const TimeZoneSelectField = forwardRef<HTMLInputElement, TimeZoneSelectProps>(
  function TimeZoneSelectField({ value, onChange, label, ...props }, ref) {
    const { t, i18n } = useTranslation();
    const zones = useMemo(() => timeZoneOptions([value], i18n.language), [value, i18n.language]);
    return (
      <Select
        ref={ref}
        label={label ?? t('auth.fields.timeZone')}
        data={zones}
        value={value}
        onChange={(next) => onChange(next ?? '')}
        searchable
        limit={60}
        allowDeselect={false}
        nothingFoundMessage={t('auth.fields.timeZoneNone')}
        comboboxProps={{ withinPortal: true }}
        {...props}
      />
    );
  },
);
