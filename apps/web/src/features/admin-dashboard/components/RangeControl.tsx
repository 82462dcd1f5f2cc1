import { SegmentedControl, Stack, Text } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRangeInput, type DateRange } from '../../../components/date-range-input/DateRangeInput';
import { useLanguage } from '../../../lib/ui-state';
import {
  addDays,
  daysBetween,
  formatDay,
  maxRangeDays,
  presetRangeDays,
  type PresetRangeDays,
} from '../dashboard-range';
import classes from './Dashboard.module.css';

export interface RangeControlProps {
  range: { preset: PresetRangeDays | 'custom'; from: string; to: string };
  today: string;
  /** The new address parameters (`range=` or `from=&to=`). */
  onChange: (params: URLSearchParams) => void;
}

/** Last 7 / 30 / 90 days, or a custom range picked on a calendar (at most 366 days, up to today). */
export function RangeControl({ range, today, onChange }: RangeControlProps) {
  const { t } = useTranslation();
  const language = useLanguage();
  const [isCustom, setIsCustom] = useState(range.preset === 'custom');
  const [draft, setDraft] = useState<DateRange>([range.from, range.to]);
  const [error, setError] = useState<string | null>(null);
  const selected = isCustom ? 'custom' : String(range.preset);

  const handlePreset = (value: string) => {
    if (value === 'custom') {
      setIsCustom(true);
      setDraft([range.from, range.to]);
      return;
    }
    setIsCustom(false);
    setError(null);
    onChange(new URLSearchParams(value === '30' ? {} : { range: value }));
  };

  const handleDates = (next: DateRange) => {
    setDraft(next);
    const [from, to] = next;
    if (!from || !to) {
      return;
    }
    if (daysBetween(from, to) > maxRangeDays) {
      setError(t('adminDashboard.range.tooLong', { days: maxRangeDays }));
      return;
    }
    setError(null);
    onChange(new URLSearchParams({ from, to }));
  };

  return (
    <Stack gap="xs" className={classes.rangeControl}>
      <SegmentedControl
        value={selected}
        onChange={handlePreset}
        data={[
          ...presetRangeDays.map((days) => ({
            value: String(days),
            label: new Intl.NumberFormat(language, {
              style: 'unit',
              unit: 'day',
              unitDisplay: 'long',
            }).format(days),
          })),
          { value: 'custom', label: t('adminDashboard.range.custom') },
        ]}
        aria-label={t('adminDashboard.range.label')}
        fullWidth
        data-testid="dashboard-range"
      />
      {isCustom ? (
        <DateRangeInput
          value={draft}
          onChange={handleDates}
          maxDate={today}
          minDate={addDays(today, -5 * 365)}
          label={t('adminDashboard.range.customLabel')}
          placeholder={t('adminDashboard.range.customPlaceholder')}
          leftSection={<IconCalendar size={16} aria-hidden />}
          error={error}
          data-testid="dashboard-range-dates"
        />
      ) : (
        <Text size="xs" c="gray.7" ta="right" data-testid="dashboard-range-text">
          {t('adminDashboard.range.summary', {
            from: formatDay(range.from, language, true),
            to: formatDay(range.to, language, true),
          })}
        </Text>
      )}
    </Stack>
  );
}
