import '@mantine/core/styles/Alert.layer.css';
import { Alert } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Shown in place of a section's content when the session lacks its permission (the server refuses too). */
export function SectionForbidden() {
  const { t } = useTranslation();
  return (
    <Alert
      color="gray"
      variant="light"
      icon={<IconLock />}
      title={t('admin.section.forbiddenTitle')}
      data-testid="section-forbidden"
    >
      {t('admin.section.forbidden')}
    </Alert>
  );
}
