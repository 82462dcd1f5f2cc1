import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconComponents, IconKey, IconServer2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServerHealth } from '../../../lib/server-status';
import { useLanguage, usePermissions } from '../../../lib/ui-state';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import classes from '../../../components/section-page/SectionPage.module.css';

/** The admin area's start: what this server is and what this session may see. */
export function DashboardPage() {
  const { t } = useTranslation();
  const permissions = usePermissions();
  return (
    <div className={classes.page} data-testid="admin-dashboard">
      <SectionHeader title={t('admin.dashboard.title')} description={t('admin.dashboard.description')} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <ServerCard />
        <Paper withBorder radius="lg" p="lg">
          <Stack gap="sm">
            <Group gap="sm">
              <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
                <IconKey size={22} />
              </ThemeIcon>
              <Title order={2} size="h4">
                {t('admin.dashboard.access.title')}
              </Title>
            </Group>
            <Text size="sm" c="gray.7">
              {permissions.length > 0
                ? t('admin.dashboard.access.some', { count: permissions.length })
                : t('admin.dashboard.access.none')}
            </Text>
            {permissions.length > 0 ? (
              <Group gap={6}>
                {permissions.map((name) => (
                  <Badge key={name} variant="light" tt="none">
                    {name}
                  </Badge>
                ))}
              </Group>
            ) : null}
          </Stack>
        </Paper>
        <Paper withBorder radius="lg" p="lg">
          <Stack gap="sm" align="flex-start">
            <Group gap="sm">
              <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
                <IconComponents size={22} />
              </ThemeIcon>
              <Title order={2} size="h4">
                {t('admin.dashboard.components.title')}
              </Title>
            </Group>
            <Text size="sm" c="gray.7">
              {t('admin.dashboard.components.text')}
            </Text>
            <Button
              component={Link}
              to="/admin/components"
              variant="light"
              rightSection={<IconArrowRight size={16} />}
            >
              {t('admin.dashboard.components.open')}
            </Button>
          </Stack>
        </Paper>
      </SimpleGrid>
    </div>
  );
}

function ServerCard() {
  const { t } = useTranslation();
  const language = useLanguage();
  const health = useServerHealth();
  return (
    <Paper withBorder radius="lg" p="lg" data-testid="admin-server-card">
      <Stack gap="sm">
        <Group gap="sm" justify="space-between">
          <Group gap="sm">
            <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
              <IconServer2 size={22} />
            </ThemeIcon>
            <Title order={2} size="h4">
              {t('admin.dashboard.server.title')}
            </Title>
          </Group>
          <Badge color={health.isSuccess ? 'teal' : health.isPending ? 'gray' : 'red'} variant="light">
            {health.isSuccess
              ? t('admin.dashboard.server.online')
              : health.isPending
                ? t('admin.dashboard.server.checking')
                : t('admin.dashboard.server.offline')}
          </Badge>
        </Group>
        {health.isSuccess ? (
          <dl className={classes.facts}>
            <dt>{t('admin.dashboard.server.version')}</dt>
            <dd>{health.data.version}</dd>
            <dt>{t('admin.dashboard.server.uptime')}</dt>
            <dd>{formatDuration(health.data.uptimeSeconds, language)}</dd>
            <dt>{t('admin.dashboard.server.database')}</dt>
            <dd>
              {t(`admin.dashboard.server.databaseKind.${health.data.database.kind}`)} ·{' '}
              {t('admin.dashboard.server.roundTrip', {
                ms: new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(
                  health.data.database.roundTripMs,
                ),
              })}
            </dd>
          </dl>
        ) : (
          <Text size="sm" c="gray.7">
            {health.isPending
              ? t('admin.dashboard.server.checking')
              : t('admin.dashboard.server.unreachable')}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** "3 h 12 min" in the reader's language, from the browser's unit names. */
function formatDuration(totalSeconds: number, language: string): string {
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = Math.floor(totalSeconds % 60);
  const unit = (value: number, name: 'hour' | 'minute' | 'second') =>
    new Intl.NumberFormat(language, { style: 'unit', unit: name, unitDisplay: 'short' }).format(value);
  if (hours > 0) {
    return `${unit(hours, 'hour')} ${unit(minutes, 'minute')}`;
  }
  if (minutes > 0) {
    return `${unit(minutes, 'minute')} ${unit(seconds, 'second')}`;
  }
  return unit(seconds, 'second');
}
