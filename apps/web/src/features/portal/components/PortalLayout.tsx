import { IconSignature } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { AccountMenu } from '../../../components/account-menu/AccountMenu';
import { BrandMark } from '../../../components/brand/BrandMark';
import { LanguageSwitcher } from '../../../components/language-switcher/LanguageSwitcher';
import { usePublicConfig } from '../../../lib/public-config';
import { useMe } from '../../../lib/session';
import { isCurrentPlace, portalNavigation } from '../navigation';
import classes from './PortalLayout.module.css';

/**
 * The patient's frame, lighter than the staff's (a patient needs four places, not an admin menu): a light header — the clinic's name and logo, the language, the
 * slots the app layer fills (notifications), the account menu — and the four places a patient goes
 * (home, doctors, visits, record): in the header on wide screens, at the bottom of a phone's screen
 * within a thumb's reach. No side navigation, no search, nothing of the staff's frame.
 */
export function PortalLayout({
  headerActions,
  notice,
  footer,
}: {
  headerActions?: ReactNode;
  /** Above every page (the app layer's time-zone notice). */
  notice?: ReactNode;
  /** After the page (the app layer's idle-session watcher). */
  footer?: ReactNode;
}) {
  const { t } = useTranslation();
  const location = useLocation();
  const me = useMe().data;
  const clinic = usePublicConfig().data?.clinic;
  const clinicName = clinic?.name ?? t('app.name');
  const links = (className: string, size: number) => (
    <ul>
      {portalNavigation.map((item) => {
        const isCurrent = isCurrentPlace(item, location.pathname);
        return (
          <li key={item.key}>
            <Link
              to={item.to}
              className={className}
              aria-current={isCurrent ? 'page' : undefined}
              data-testid={`portal-nav-${item.key}`}
            >
              <item.icon size={size} stroke={1.7} aria-hidden />
              <span className={classes.bottomLabel}>{t(`portal.nav.${item.key}`)}</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
  return (
    <div className={classes.shell} data-testid="portal-layout">
      <header className={classes.header}>
        <div className={classes.headerInner}>
          <Link
            to="/portal"
            className={classes.brand}
            aria-label={`${clinicName}: ${t('portal.nav.home')}`}
            data-testid="portal-brand"
          >
            {clinic?.logoUrl ? (
              <img src={clinic.logoUrl} alt="" className={classes.brandLogo} />
            ) : (
              <BrandMark size={30} />
            )}
            <span className={classes.brandName}>{clinicName}</span>
          </Link>
          <nav className={classes.topNav} aria-label={t('portal.nav.label')}>
            {links(classes.topLink!, 18)}
          </nav>
          <span className={classes.spacer} />
          <div className={classes.actions}>
            <LanguageSwitcher />
            {me ? headerActions : null}
            {me ? (
              <AccountMenu
                user={me.user}
                profilePath="/portal/profile"
                links={[
                  {
                    key: 'consents',
                    to: '/portal/consents',
                    label: t('portal.menu.consents'),
                    icon: <IconSignature size={18} />,
                  },
                ]}
                buttonClassName={classes.userButton}
              />
            ) : null}
          </div>
        </div>
      </header>
      <main className={classes.main}>
        {me ? notice : null}
        <Outlet />
      </main>
      <nav className={classes.bottomNav} aria-label={t('portal.nav.label')} data-testid="portal-bottom-nav">
        {links(classes.bottomLink!, 22)}
      </nav>
      {footer}
    </div>
  );
}
