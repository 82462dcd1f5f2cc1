import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/NumberInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Chip.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Pill.layer.css';
import '@mantine/core/styles/PillsInput.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Image.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import { Alert, Skeleton, Stack, Tabs } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconBuildingHospital,
  IconCalendarTime,
  IconClockHour4,
  IconEyeOff,
  IconFileUpload,
  IconShieldLock,
  IconVideo,
  type Icon,
} from '@tabler/icons-react';
import type { ClinicSettings } from '@telemedicina/shared/clinic-settings';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useApiErrorText } from '../../../lib/error-text';
import { useHasAnyPermission } from '../../../lib/ui-state';
import { useSettings } from '../api/get-settings';
import { BookingSection } from './BookingSection';
import { ClinicSection } from './ClinicSection';
import classes from './ClinicSettings.module.css';
import { PrivacySection } from './PrivacySection';
import { isSettingsSection, settingsSections, type SettingsSection } from './section-errors';
import { SecuritySection } from './SecuritySection';
import { SessionsSection } from './SessionsSection';
import { UploadsSection } from './UploadsSection';
import { VideoSection } from './VideoSection';

const sectionIcons: Record<SettingsSection, Icon> = {
  clinic: IconBuildingHospital,
  sessions: IconClockHour4,
  security: IconShieldLock,
  booking: IconCalendarTime,
  uploads: IconFileUpload,
  video: IconVideo,
  privacy: IconEyeOff,
};

const sectionForms: Record<SettingsSection, (props: { settings: ClinicSettings }) => ReactNode> = {
  clinic: ClinicSection,
  sessions: SessionsSection,
  security: SecuritySection,
  booking: BookingSection,
  uploads: UploadsSection,
  video: VideoSection,
  privacy: PrivacySection,
};

/**
 * `/admin/settings` (settings.manage): the clinic's settings in seven sections, one tab each (the
 * open one is in the address: `?section=booking`). Each section saves on its own; the server
 * audits every change.
 */
export function ClinicSettingsPage() {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['settings.manage']);
  return (
    <div className={pageClasses.page} data-testid="clinic-settings-page">
      <SectionHeader title={t('admin.nav.settings')} description={t('clinicSettings.description')} />
      {isAllowed ? <SettingsTabs /> : <SectionForbidden />}
    </div>
  );
}

function SettingsTabs() {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const settings = useSettings();
  const [searchParams, setSearchParams] = useSearchParams();
  const isWide = useMediaQuery('(min-width: 48em)', true) ?? true;
  const requested = searchParams.get('section');
  const active: SettingsSection = isSettingsSection(requested) ? requested : 'clinic';

  const handleChange = (value: string | null) => {
    if (!isSettingsSection(value)) {
      return;
    }
    const next = new URLSearchParams(searchParams);
    if (value === 'clinic') {
      next.delete('section');
    } else {
      next.set('section', value);
    }
    setSearchParams(next, { replace: true });
  };

  if (settings.isPending) {
    return (
      <Stack gap="md" aria-busy="true">
        <Skeleton height={44} radius="md" />
        <Skeleton height={280} radius="lg" />
      </Stack>
    );
  }
  if (settings.isError) {
    return (
      <Alert color="red" variant="light" data-testid="settings-load-error">
        {errorText(settings.error)}
      </Alert>
    );
  }

  return (
    <Tabs
      value={active}
      onChange={handleChange}
      orientation={isWide ? 'vertical' : 'horizontal'}
      variant="pills"
      radius="md"
      className={classes.tabs}
      classNames={{ tabLabel: classes.tabLabel }}
      data-testid="settings-tabs"
    >
      <Tabs.List className={classes.tabList} aria-label={t('clinicSettings.sectionsLabel')}>
        {settingsSections.map((section) => {
          const SectionIcon = sectionIcons[section];
          return (
            <Tabs.Tab
              key={section}
              value={section}
              leftSection={<SectionIcon size={18} stroke={1.7} aria-hidden />}
              className={classes.tab}
              data-testid={`settings-tab-${section}`}
            >
              {t(`clinicSettings.${section}.tab`)}
            </Tabs.Tab>
          );
        })}
      </Tabs.List>
      {settingsSections.map((section) => {
        const SectionForm = sectionForms[section];
        return (
          <Tabs.Panel key={section} value={section} className={classes.panel}>
            <SectionForm settings={settings.data} />
          </Tabs.Panel>
        );
      })}
    </Tabs>
  );
}
