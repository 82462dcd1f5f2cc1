import { Text } from '@mantine/core';
import { vitalNames, type VitalName, type Vitals } from '@telemedicina/shared/notes';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import classes from './Notes.module.css';
import { useViewerTimeZone } from '../../../lib/use-clock';

/** A measurement in the reader's language ("36,8" / "36.8"). */
export function formatVital(value: number, language: string): string {
  return new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value);
}

const shownVitals: readonly (VitalName | 'bloodPressure')[] = [
  'bloodPressure',
  ...vitalNames.filter((name) => name !== 'systolicMmHg' && name !== 'diastolicMmHg'),
];

/**
 * What the patient reported before the visit, read-only: each measurement with its unit (blood
 * pressure as systolic/diastolic) and when it was reported, in the viewer's zone. `isOwn` when the
 * patient reads their own ("You did not report…" instead of "The patient has not reported…").
 */
export function VitalsView({ vitals, isOwn = false }: { vitals: Vitals | null; isOwn?: boolean }) {
  const { t } = useTranslation();
  const noneText = isOwn ? t('notes.vitals.noneOwn') : t('notes.vitals.none');
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  if (!vitals) {
    return (
      <Text size="sm" c="gray.7" data-testid="note-vitals-none">
        {noneText}
      </Text>
    );
  }
  const items = shownVitals.flatMap((name): { name: VitalName | 'bloodPressure'; text: string }[] => {
    if (name === 'bloodPressure') {
      const { systolicMmHg: systolic, diastolicMmHg: diastolic } = vitals;
      if (systolic === null && diastolic === null) {
        return [];
      }
      const text = `${systolic === null ? '—' : formatVital(systolic, language)}/${diastolic === null ? '—' : formatVital(diastolic, language)}`;
      return [{ name, text: `${text} ${t('notes.vitals.units.mmHg')}` }];
    }
    const value = vitals[name];
    return value === null
      ? []
      : [{ name, text: `${formatVital(value, language)} ${t(`notes.vitals.units.${name}`)}`.trim() }];
  });
  return (
    <div data-testid="note-vitals">
      {items.length === 0 ? (
        <Text size="sm" c="gray.7">
          {noneText}
        </Text>
      ) : (
        <dl className={classes.vitals}>
          {items.map((item) => (
            <div key={item.name} className={classes.vital} data-testid={`note-vital-${item.name}`}>
              <dt>{t(`notes.vitals.fields.${item.name}`)}</dt>
              <dd>{item.text}</dd>
            </div>
          ))}
        </dl>
      )}
      <Text size="xs" c="gray.7" mt={6} data-testid="note-vitals-reported">
        {t('notes.vitals.reportedAt', { when: formatDateTime(vitals.reportedAt, language, timeZone) })}
      </Text>
    </div>
  );
}
