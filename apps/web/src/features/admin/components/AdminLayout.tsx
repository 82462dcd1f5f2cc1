import '@mantine/core/styles/AppShell.layer.css';
import '@mantine/core/styles/Burger.layer.css';
import '@mantine/core/styles/NavLink.layer.css';
import '@mantine/core/styles/ScrollArea.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import { Alert, AppShell, Burger, Group, NavLink, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconShieldLock } from '@tabler/icons-react';
import { hasAnyPermission } from '@telemedicina/shared/permission-check';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { BrandMark } from '../../../components/brand/BrandMark';
import { LanguageSwitcher } from '../../../components/language-switcher/LanguageSwitcher';
import { usePublicConfig } from '../../../lib/public-config';
import { mfaEnrollmentPath } from '../../../lib/return-to';
import { useMe } from '../../../lib/session';
import { usePermissions } from '../../../lib/ui-state';
import { navigationItems } from '../navigation';
import classes from './AdminLayout.module.css';
import { GlobalSearch } from './GlobalSearch';
import { IdleSessionWatcher } from './IdleSessionWatcher';
import { UserMenu } from './UserMenu';
import { useMediaMatch } from '../../../lib/use-media-match';

/**
 * The admin area's shell: header with the clinic's name and logo (public configuration), the
 * global search box (the shared "search text"; hits grouped in a dropdown), the language switcher
 * and the user menu; a side navigation whose items appear by permission; the routed section; and
 * the idle-logout watcher. A user who must still set up a second factor sees a banner and only the
 * profile's security screen (the route guard keeps them there). `headerActions` (the app layer's
 * notification bell) sit before the user menu once the session is fully set up.
 */
export function AdminLayout({
  headerActions,
  notice,
  isPreview = false,
}: {
  headerActions?: ReactNode;
  /** A notice above every section (the app layer's time-zone notice), once the session is set up. */
  notice?: ReactNode;
  /**
   * Drawn before the session is known (the pre-rendered page, app/prerender-home.tsx): without the
   * navigation's links, since which ones appear depends on the person's permissions — the live page
   * adds them all at once instead of moving the few every account has.
   */
  isPreview?: boolean;
} = {}) {
  const { t } = useTranslation();
  const [isNavOpen, { toggle: toggleNav, close: closeNav }] = useDisclosure(false);
  const permissions = usePermissions();
  const location = useLocation();
  const me = useMe().data;
  const clinic = usePublicConfig().data?.clinic;
  // Phones have no room for the switcher in the header: it moves to the foot of the navigation.
  // Read at the first render (not in an effect), so a phone never draws it in the header first; a
  // render without a window (the pre-rendered page) takes the phone's layout.
  const isWide = useMediaMatch('(min-width: 48em)');
  const isEnrollmentRequired = me?.session.mfaEnrollmentRequired ?? false;
  const visibleItems = isPreview
    ? []
    : isEnrollmentRequired
      ? navigationItems
          .filter((item) => item.key === 'profile')
          .map((item) => ({ ...item, to: mfaEnrollmentPath }))
      : navigationItems.filter((item) => !item.anyOf || hasAnyPermission(permissions, item.anyOf));

  return (
    <AppShell
      header={{ height: 64 }}
      navbar={{ width: 264, breakpoint: 'sm', collapsed: { mobile: !isNavOpen } }}
      padding={0}
      className={classes.shell}
    >
      <AppShell.Header className={classes.header}>
        <Group h="100%" px="md" gap="sm" wrap="nowrap">
          <Burger
            opened={isNavOpen}
            onClick={toggleNav}
            hiddenFrom="sm"
            size="sm"
            aria-label={isNavOpen ? t('admin.header.closeNavigation') : t('admin.header.openNavigation')}
            data-testid="admin-burger"
          />
          <UnstyledButton
            component={Link}
            to="/admin"
            className={classes.brand}
            // Starts with the visible name (WCAG 2.5.3, label in name).
            aria-label={`${clinic?.name ?? t('app.name')}: ${t('admin.header.home')}`}
          >
            {clinic?.logoUrl ? (
              <img
                src={clinic.logoUrl}
                alt=""
                className={classes.brandLogo}
                data-testid="admin-clinic-logo"
              />
            ) : (
              <BrandMark size={30} />
            )}
            <Text className={classes.brandName} visibleFrom="sm" data-testid="admin-clinic-name">
              {clinic?.name ?? t('app.name')}
            </Text>
          </UnstyledButton>
          <div role="search" className={classes.search}>
            <GlobalSearch />
          </div>
          {isWide ? <LanguageSwitcher /> : null}
          {me && !isEnrollmentRequired ? headerActions : null}
          {me ? <UserMenu user={me.user} isProfileOnly={isEnrollmentRequired} /> : null}
        </Group>
      </AppShell.Header>

      <AppShell.Navbar className={classes.navbar} aria-label={t('admin.nav.label')}>
        <AppShell.Section grow component={ScrollArea} p="sm">
          <div data-testid="admin-navigation">
            {visibleItems.map((item) => {
              const isActive =
                item.to === '/admin'
                  ? location.pathname === '/admin' || location.pathname === '/admin/'
                  : location.pathname.startsWith(item.to);
              return (
                <NavLink
                  key={item.key}
                  component={Link}
                  to={item.to}
                  label={t(`admin.nav.${item.key}`)}
                  leftSection={<item.icon size={20} stroke={1.7} aria-hidden />}
                  active={isActive}
                  aria-current={isActive ? 'page' : undefined}
                  onClick={closeNav}
                  className={classes.navLink}
                  data-testid={`admin-nav-${item.key}`}
                />
              );
            })}
          </div>
        </AppShell.Section>
        {isWide ? null : (
          <AppShell.Section p="md" className={classes.navFooter}>
            <div className={classes.navLanguage}>
              <LanguageSwitcher />
            </div>
          </AppShell.Section>
        )}
      </AppShell.Navbar>

      <AppShell.Main className={classes.main}>
        {isEnrollmentRequired ? (
          <Alert
            color="orange"
            variant="light"
            radius={0}
            icon={<IconShieldLock />}
            title={t('admin.mfaRequired.title')}
            className={classes.banner}
            data-testid="mfa-required-banner"
          >
            {t('admin.mfaRequired.text')}
          </Alert>
        ) : null}
        {me && !isEnrollmentRequired ? notice : null}
        <Outlet />
      </AppShell.Main>
      {me ? <IdleSessionWatcher session={me.session} /> : null}
    </AppShell>
  );
}
