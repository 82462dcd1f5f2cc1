import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { BrandMark } from '../../components/brand/BrandMark';
import { LanguageSwitcher } from '../../components/language-switcher/LanguageSwitcher';
import classes from './ErrorPage.module.css';
import { browserGoBackEnvironment, goBackOrHome } from './go-back';

export interface ErrorPageProps {
  code: string;
  icon: ReactNode;
  title: string;
  description: string;
  actionLabel: string;
  brandName: string;
  testId: string;
}

/** The layout shared by the two error pages: a calm centred card with an illustration and one way out. */
export function ErrorPage({
  code,
  icon,
  title,
  description,
  actionLabel,
  brandName,
  testId,
}: ErrorPageProps) {
  const navigate = useNavigate();
  const handleBack = () =>
    goBackOrHome(browserGoBackEnvironment(() => void navigate('/', { replace: true })));

  return (
    <div className={classes.page} data-testid={testId}>
      <header className={classes.header}>
        <div className={classes.brand}>
          <BrandMark size={30} />
          <Text fw={700} size="lg" c="clinic.9">
            {brandName}
          </Text>
        </div>
        <LanguageSwitcher />
      </header>
      <main className={classes.main}>
        <Paper className={classes.card} shadow="md" radius="lg" withBorder>
          <Stack align="center" gap="md">
            <div className={classes.illustration} aria-hidden>
              <span className={classes.code}>{code}</span>
              <ThemeIcon size={76} radius={999} variant="light" className={classes.icon}>
                {icon}
              </ThemeIcon>
            </div>
            <Title order={1} className={classes.title} data-testid="error-page-title">
              {title}
            </Title>
            <Text c="gray.7" ta="center" maw={380}>
              {description}
            </Text>
            <Button
              size="md"
              leftSection={<IconArrowBackUp size={20} />}
              onClick={handleBack}
              data-testid="error-page-action"
              mt="xs"
            >
              {actionLabel}
            </Button>
          </Stack>
        </Paper>
      </main>
    </div>
  );
}
