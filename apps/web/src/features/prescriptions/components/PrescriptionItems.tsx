import type { PrescriptionItem } from '@telemedicina/shared/prescriptions';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import classes from './Prescriptions.module.css';

const details = ['dose', 'route', 'frequency', 'duration', 'quantity'] as const;

/** The medications of a prescription as a numbered list, each with its details. */
export function PrescriptionItems({ items }: { items: readonly PrescriptionItem[] }) {
  const { t } = useTranslation();
  return (
    <ol className={classes.itemList} data-testid="prescription-items">
      {items.map((item) => (
        <li key={item.position} className={classes.item}>
          <Text fw={650}>
            {item.position}. {item.medication}
          </Text>
          <dl className={classes.itemDetails}>
            {details.map((field) => (
              <div key={field}>
                <dt>{t(`prescriptions.fields.${field}`)}</dt>
                <dd>{item[field]}</dd>
              </div>
            ))}
            {item.instructions ? (
              <div style={{ gridColumn: '1 / -1' }}>
                <dt>{t('prescriptions.fields.instructions')}</dt>
                <dd>{item.instructions}</dd>
              </div>
            ) : null}
          </dl>
        </li>
      ))}
    </ol>
  );
}
