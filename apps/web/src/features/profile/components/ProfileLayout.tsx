import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/Checkbox.layer.css';
import '@mantine/core/styles/CheckboxIndicator.layer.css';
import '@mantine/core/styles/InlineInput.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Avatar.layer.css';
import '@mantine/core/styles/Progress.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconApps, IconId, IconPhoto, IconShieldLock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useMe } from '../../../lib/session';
import classes from './Profile.module.css';

const tabs = [
  { key: 'details', to: '/admin/profile', icon: IconId },
  { key: 'photo', to: '/admin/profile/photo', icon: IconPhoto },
  { key: 'security', to: '/admin/profile/security', icon: IconShieldLock },
  { key: 'apps', to: '/admin/profile/connected-apps', icon: IconApps },
] as const;

/** `/admin/profile`: the signed-in person's own data, in tabs that are real addresses (connected apps last). */
export function ProfileLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const me = useMe().data;
  const isEnrollmentRequired = me?.session.mfaEnrollmentRequired ?? false;
  // The portal draws the same tabs at /portal/profile/…: compare as the admin addresses.
  const path = location.pathname.replace(/\/+$/, '').replace(/^\/portal(?=\/)/, '/admin');
  const current = tabs.find((tab) => tab.to === path)?.key ?? 'details';
  const isWide = useMediaQuery('(min-width: 36em)', true) ?? true;
  const visibleTabs = isEnrollmentRequired ? tabs.filter((tab) => tab.key === 'security') : tabs;

  return (
    <div className={classes.page} data-testid="profile-page">
      <Stack gap={4}>
        <Title order={1} className={classes.title}>
          {t('profile.title')}
        </Title>
        <Text c="gray.7">{t('profile.description')}</Text>
      </Stack>
      <Tabs
        value={current}
        onChange={(value) => {
          const tab = tabs.find((candidate) => candidate.key === value);
          if (tab) {
            void navigate(tab.to);
          }
        }}
        className={classes.tabs}
        keepMounted={false}
      >
        <Tabs.List>
          {visibleTabs.map((tab) => (
            <Tabs.Tab
              key={tab.key}
              value={tab.key}
              leftSection={isWide ? <tab.icon size={18} aria-hidden /> : undefined}
              data-testid={`profile-tab-${tab.key}`}
            >
              {t(`profile.tabs.${tab.key}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value={current} pt="lg">
          <Outlet />
        </Tabs.Panel>
      </Tabs>
    </div>
  );
}
