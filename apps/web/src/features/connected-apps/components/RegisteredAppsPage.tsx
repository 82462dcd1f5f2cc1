import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Code.layer.css';
import '@mantine/core/styles/Switch.layer.css';
import { Alert, Badge, Button, Card, Code, Group, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { formatDateTime } from '../../../lib/format';
import { useLanguage } from '../../../lib/ui-state';
import { useViewerTimeZone } from '../../../lib/use-clock';
import {
  useIssueRegistrationToken,
  useRegisteredApps,
  useSetAppBlocked,
  useSetOpenRegistration,
} from '../api/registered-apps';

/**
 * `/admin/apps` (administrators): the apps registered for SMART on FHIR sign-in — name, return
 * addresses, when and how each was registered — with Block, the open registration switch and a
 * one-use registration code for apps that may not register by themselves.
 */
export function RegisteredAppsPage() {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const apps = useRegisteredApps();
  const setBlocked = useSetAppBlocked();
  const setOpen = useSetOpenRegistration();
  const issue = useIssueRegistrationToken();

  return (
    <Stack gap="lg" className={pageClasses.page} data-testid="registered-apps-page">
      <SectionHeader
        title={t('connectedApps.admin.title')}
        description={t('connectedApps.admin.description')}
      />
      <Card withBorder padding="md">
        <Stack gap="sm">
          <Switch
            checked={apps.data?.openRegistration ?? false}
            disabled={apps.data === undefined || setOpen.isPending}
            onChange={(event) => setOpen.mutate(event.currentTarget.checked)}
            label={t('connectedApps.admin.openRegistration')}
            description={t('connectedApps.admin.openRegistrationHelp')}
            data-testid="registered-apps-open"
          />
          <Group>
            <Button
              variant="light"
              onClick={() => issue.mutate()}
              loading={issue.isPending}
              data-testid="registered-apps-issue"
            >
              {t('connectedApps.admin.issueToken')}
            </Button>
          </Group>
          {issue.data ? (
            <Alert color="blue" data-testid="registered-apps-token">
              <Text size="sm">
                {t('connectedApps.admin.tokenIssued', {
                  date: formatDateTime(issue.data.expiresAt, language, timeZone),
                })}
              </Text>
              <Code block mt="xs">
                {issue.data.token}
              </Code>
            </Alert>
          ) : null}
        </Stack>
      </Card>
      {apps.data?.data.length === 0 ? <Text>{t('connectedApps.admin.empty')}</Text> : null}
      {(apps.data?.data ?? []).map((app) => (
        <Card key={app.clientId} withBorder padding="md" data-testid="registered-app">
          <Stack gap={6}>
            <Group justify="space-between" gap="sm" align="flex-start">
              <Group gap="xs">
                <Text fw={700}>{app.name}</Text>
                {app.blockedAt === null ? null : (
                  <Badge color="red" variant="light" tt="none">
                    {t('connectedApps.admin.blocked')}
                  </Badge>
                )}
              </Group>
              <Button
                size="xs"
                variant="light"
                color={app.blockedAt === null ? 'red' : 'gray'}
                loading={setBlocked.isPending && setBlocked.variables.clientId === app.clientId}
                onClick={() => setBlocked.mutate({ clientId: app.clientId, blocked: app.blockedAt === null })}
                data-testid="registered-app-block"
              >
                {app.blockedAt === null ? t('connectedApps.admin.block') : t('connectedApps.admin.unblock')}
              </Button>
            </Group>
            <Text size="sm" c="gray.7">
              {t('connectedApps.admin.registered', {
                date: formatDateTime(app.registeredAt, language, timeZone),
                how:
                  app.registration === 'dynamic'
                    ? t('connectedApps.admin.byItself')
                    : t('connectedApps.admin.withCode', { name: app.registeredByName ?? '—' }),
              })}
            </Text>
            <Text size="sm">{t('connectedApps.admin.redirectUris')}</Text>
            {app.redirectUris.map((uri) => (
              <Code key={uri} style={{ overflowWrap: 'anywhere' }}>
                {uri}
              </Code>
            ))}
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
