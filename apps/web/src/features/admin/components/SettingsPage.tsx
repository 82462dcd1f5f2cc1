import { Alert, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconLock, IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { SectionHeader } from './SectionHeader';
import classes from './SectionPage.module.css';

/** `/admin/settings`: says plainly that the clinic's settings arrive with the administration module. */
export function SettingsPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['settings.manage']);
  return (
    <div className={classes.page} data-testid="admin-section-settings">
      <SectionHeader title={t('admin.nav.settings')} description={t('admin.sections.settings')} />
      {isAllowed ? (
        <Paper withBorder radius="lg" p="xl" data-testid="section-coming">
          <Stack align="center" gap="xs">
            <ThemeIcon size={52} radius={999} variant="light" color="gray" aria-hidden>
              <IconTools size={28} />
            </ThemeIcon>
            <Text fw={650}>{t('admin.section.unavailableTitle')}</Text>
            <Text size="sm" c="gray.7" ta="center" maw={420}>
              {t('admin.section.unavailable')}
            </Text>
          </Stack>
        </Paper>
      ) : (
        <Alert color="gray" variant="light" icon={<IconLock />} title={t('admin.section.forbiddenTitle')}>
          {t('admin.section.forbidden')}
        </Alert>
      )}
    </div>
  );
}
