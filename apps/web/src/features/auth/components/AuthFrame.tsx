import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import { Paper, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCalendarHeart, IconLock, IconVideo } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { MouseEvent, ReactNode } from 'react';
import { BrandMark } from '../../../components/brand/BrandMark';
import { LanguageSwitcher } from '../../../components/language-switcher/LanguageSwitcher';
import classes from './AuthLayout.module.css';
import { ServerStatus } from './ServerStatus';

const features = [
  { key: 'booking', icon: IconCalendarHeart },
  { key: 'video', icon: IconVideo },
  { key: 'records', icon: IconLock },
] as const;

/**
 * The frame of the authentication area: the product's presentation beside a card holding the
 * current step — sign in, register, verify, reset, accept an invitation. On phones the card
 * comes first so the form is on the first screen. It does not need the router (the signed-out
 * start page shows it before the application is downloaded); `onNavigate` follows the home link.
 */
export function AuthFrame({
  children,
  onNavigate,
}: {
  children: ReactNode;
  onNavigate: (path: string) => void;
}) {
  const { t } = useTranslation();
  const handleHomeClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) {
      return;
    }
    event.preventDefault();
    onNavigate('/');
  };
  return (
    <div className={classes.page} data-testid="auth-layout">
      <header className={classes.header}>
        <a href="/" className={classes.brand} aria-label={t('auth.layout.home')} onClick={handleHomeClick}>
          <BrandMark size={34} />
          <Text component="span" className={classes.brandName}>
            {t('app.name')}
          </Text>
        </a>
        <LanguageSwitcher />
      </header>

      <main className={classes.main}>
        <section className={classes.intro} aria-labelledby="auth-headline">
          <Text className={classes.eyebrow}>{t('auth.eyebrow')}</Text>
          <Title order={1} id="auth-headline" className={classes.headline}>
            {t('auth.headline')}
          </Title>
          <Text className={classes.lead}>{t('auth.lead')}</Text>
          <ul className={classes.features}>
            {features.map(({ key, icon: Icon }) => (
              <li key={key} className={classes.feature}>
                <ThemeIcon size={42} radius="md" variant="light" aria-hidden>
                  <Icon size={22} stroke={1.7} />
                </ThemeIcon>
                <div>
                  <Text fw={650}>{t(`auth.features.${key}.title`)}</Text>
                  <Text size="sm" c="gray.7">
                    {t(`auth.features.${key}.text`)}
                  </Text>
                </div>
              </li>
            ))}
          </ul>
        </section>

        <div className={classes.aside}>
          <Paper className={classes.card} shadow="md" radius="lg" withBorder component="section">
            {children}
          </Paper>
          <ServerStatus />
        </div>
      </main>

      <footer className={classes.footer}>
        <Text size="xs" c="gray.7">
          {t('auth.footer')}
        </Text>
      </footer>
    </div>
  );
}
