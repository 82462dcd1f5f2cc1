import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/dates/styles.layer.css';
import { DatePickerInput, DatesProvider, type DatePickerInputProps } from '@mantine/dates';
import 'dayjs/locale/es';
import 'dayjs/locale/en';
import { useLanguage } from '../../lib/ui-state';

/** An inclusive range of `YYYY-MM-DD` dates; either end may be open while the person picks. */
export type DateRange = [string | null, string | null];

export type DateRangeInputProps = Omit<DatePickerInputProps<'range'>, 'type' | 'value' | 'onChange'> & {
  value: DateRange;
  onChange: (range: DateRange) => void;
};

/**
 * A date-range picker in the interface's language (month and day names, week starting on Monday
 * in Spanish, Sunday in English). Values are plain `YYYY-MM-DD` dates, never instants.
 */
export function DateRangeInput({ value, onChange, ...props }: DateRangeInputProps) {
  const language = useLanguage();
  return (
    <DatesProvider settings={{ locale: language, firstDayOfWeek: language === 'es' ? 1 : 0 }}>
      <DatePickerInput
        type="range"
        value={value}
        onChange={(next) => onChange([toDate(next[0]), toDate(next[1])])}
        valueFormat={language === 'es' ? 'D MMM YYYY' : 'MMM D, YYYY'}
        allowSingleDateInRange
        popoverProps={{ withinPortal: true }}
        {...props}
      />
    </DatesProvider>
  );
}

function toDate(value: string | Date | null): string | null {
  if (value === null) {
    return null;
  }
  if (typeof value === 'string') {
    return value.slice(0, 10);
  }
  const pad = (part: number) => String(part).padStart(2, '0');
  // A day picked in the calendar (local midnight), not an instant: its local date is the date chosen.
  // eslint-disable-next-line no-restricted-syntax
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}
