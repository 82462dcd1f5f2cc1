import { Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowBackUp, IconHome, IconMapPinOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { browserGoBackEnvironment, goBackOrHome } from './go-back';

/**
 * An unknown address for someone signed in: the same words as the signed-out 404, drawn inside
 * the app's frame (menu, header) with the way home first and one step back beside it.
 */
export function NotFoundContent({ homePath }: { homePath: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const handleBack = () =>
    goBackOrHome(browserGoBackEnvironment(() => void navigate(homePath, { replace: true })));
  return (
    <Stack align="center" py={{ base: 'lg', sm: 48 }} px="md" data-testid="not-found-page" data-framed="true">
      <Paper withBorder radius="lg" shadow="sm" p={{ base: 'lg', sm: 'xl' }} maw={520} w="100%">
        <Stack align="center" gap="md">
          <ThemeIcon size={64} radius={999} variant="light" aria-hidden>
            <IconMapPinOff size={34} stroke={1.6} />
          </ThemeIcon>
          <Title order={1} size="h2" ta="center" data-testid="error-page-title">
            {t('errors.notFound.title')}
          </Title>
          <Text c="gray.7" ta="center">
            {t('errors.notFound.signedInDescription')}
          </Text>
          <Group justify="center" gap="sm">
            <Button
              component={Link}
              to={homePath}
              leftSection={<IconHome size={18} />}
              data-testid="not-found-home"
            >
              {t('errors.notFound.home')}
            </Button>
            <Button
              variant="default"
              leftSection={<IconArrowBackUp size={18} />}
              onClick={handleBack}
              data-testid="error-page-action"
            >
              {t('errors.notFound.action')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}
