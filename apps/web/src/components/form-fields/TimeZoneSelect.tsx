import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Input.layer.css';
import { Select, type SelectProps } from '@mantine/core';
import { forwardRef, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { timeZoneOptions } from '../../lib/time-zones';

export interface TimeZoneSelectProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchable' | 'nothingFoundMessage'
> {
  value: string;
  onChange: (zone: string) => void;
}

/**
 * A searchable select of every IANA time zone, labelled "(GMT+01:00) Europe/Madrid"; the current
 * value is kept in the list even when the browser does not know it. Label defaults to "Time zone".
 */
export const TimeZoneSelect = forwardRef<HTMLInputElement, TimeZoneSelectProps>(function TimeZoneSelect(
  { value, onChange, label, ...props },
  ref,
) {
  const { t } = useTranslation();
  const zones = useMemo(() => timeZoneOptions([value]), [value]);
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
});
