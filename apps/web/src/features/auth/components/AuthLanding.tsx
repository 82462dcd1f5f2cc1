import { Button, Divider, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconCalendarHeart, IconComponents, IconLock, IconVideo } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '../../../components/brand/BrandMark';
import { LanguageSwitcher } from '../../../components/language-switcher/LanguageSwitcher';
import classes from './AuthLanding.module.css';
import { ServerStatus } from './ServerStatus';

const features = [
  { key: 'booking', icon: IconCalendarHeart },
  { key: 'video', icon: IconVideo },
  { key: 'records', icon: IconLock },
] as const;

/**
 * The entry of the product (the authentication area at the empty path). Accounts arrive with the
 * identity work; until then this page says so plainly and leads into the workspace.
 */
export function AuthLanding() {
  const { t } = useTranslation();
  return (
    <div className={classes.page} data-testid="auth-landing">
      <header className={classes.header}>
        <div className={classes.brand}>
          <BrandMark size={34} />
          <Text className={classes.brandName}>{t('app.name')}</Text>
        </div>
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

        <Paper
          className={classes.card}
          shadow="md"
          radius="lg"
          withBorder
          component="section"
          aria-labelledby="auth-access-title"
        >
          <Stack gap="md">
            <div>
              <Title order={2} id="auth-access-title" className={classes.cardTitle}>
                {t('auth.access.title')}
              </Title>
              <Text size="sm" c="gray.7" mt={6}>
                {t('auth.access.text')}
              </Text>
            </div>
            <Button
              component={Link}
              to="/admin"
              size="md"
              rightSection={<IconArrowRight size={18} />}
              data-testid="auth-enter-admin"
            >
              {t('auth.access.enter')}
            </Button>
            <Button
              component={Link}
              to="/admin/components"
              variant="default"
              leftSection={<IconComponents size={18} />}
              data-testid="auth-open-components"
            >
              {t('auth.access.components')}
            </Button>
            <Text size="xs" c="gray.7">
              {t('auth.access.accountsNote')}
            </Text>
            <Divider />
            <ServerStatus />
          </Stack>
        </Paper>
      </main>

      <footer className={classes.footer}>
        <Text size="xs" c="gray.7">
          {t('auth.footer')}
        </Text>
      </footer>
    </div>
  );
}
