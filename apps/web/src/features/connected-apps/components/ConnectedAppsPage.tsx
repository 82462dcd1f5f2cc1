import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/List.layer.css';
import { Alert, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { useViewerTimeZone } from '../../../lib/use-clock';
import { useConnectedApps, useDisconnectApp } from '../api/connected-apps';
import { describeScopes } from './scope-words';

/**
 * `/admin/profile/connected-apps`: the apps the person allowed to read their data through SMART on
 * FHIR, what each may read and when it last did, with Disconnect (its access ends at once).
 */
export function ConnectedAppsPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const apps = useConnectedApps();
  const disconnect = useDisconnectApp();

  return (
    <Stack gap="md" data-testid="connected-apps-page">
      <Stack gap={4}>
        <Title order={2} fz="h3">
          {t('connectedApps.list.title')}
        </Title>
        <Text c="gray.7" size="sm">
          {t('connectedApps.list.description')}
        </Text>
      </Stack>
      {disconnect.isSuccess ? (
        <Alert color="teal" role="status" data-testid="connected-apps-disconnected">
          {t('connectedApps.list.disconnected')}
        </Alert>
      ) : null}
      {apps.data?.length === 0 ? (
        <Text data-testid="connected-apps-empty">{t('connectedApps.list.empty')}</Text>
      ) : null}
      {(apps.data ?? []).map((app) => (
        <Card key={app.id} withBorder padding="md" data-testid="connected-app">
          <Stack gap="xs">
            <Group justify="space-between" align="flex-start" gap="sm">
              <Stack gap={0}>
                <Text fw={700} data-testid="connected-app-name">
                  {app.client.name}
                </Text>
                <Text size="xs" c="gray.7">
                  {t('connectedApps.list.connectedAt', {
                    date: formatDateTime(app.connectedAt, language, timeZone),
                  })}
                </Text>
                <Text size="xs" c="gray.7" data-testid="connected-app-last-used">
                  {app.lastUsedAt === null
                    ? t('connectedApps.list.neverUsed')
                    : t('connectedApps.list.lastUsed', {
                        date: formatDateTime(app.lastUsedAt, language, timeZone),
                      })}
                </Text>
              </Stack>
              <Button
                color="red"
                variant="light"
                size="xs"
                loading={disconnect.isPending && disconnect.variables === app.id}
                onClick={() => disconnect.mutate(app.id)}
                data-testid="connected-app-disconnect"
              >
                {t('connectedApps.list.disconnect')}
              </Button>
            </Group>
            <Text size="sm" fw={600}>
              {t('connectedApps.list.mayRead')}
            </Text>
            <List size="sm" spacing={2}>
              {describeScopes(app.scopes, t).map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
