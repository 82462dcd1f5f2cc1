import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/List.layer.css';
import { Alert, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconApps, IconCheck, IconExternalLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useDecideSmartInteraction, useSmartInteraction } from '../api/smart-interaction';
import { describeScopes } from './scope-words';

function siteOf(uri: string | null): string | null {
  if (uri === null || !URL.canParse(uri)) {
    return null;
  }
  return new URL(uri).host;
}

/**
 * The consent screen of SMART on FHIR sign-in (`/portal/connected-apps/authorize/:uid`): reached
 * from the authorization server after the app's own sign-in, it names the app and its site and
 * lists each permission asked in plain words; Allow or Deny sends the browser back to the app.
 */
export function AuthorizeAppPage() {
  const { t } = useTranslation();
  const { uid = '' } = useParams();
  const interaction = useSmartInteraction(uid);
  const decide = useDecideSmartInteraction();

  const answer = (decision: 'allow' | 'deny') => {
    decide.mutate(
      { uid, decision },
      {
        onSuccess: ({ redirectTo }) => {
          window.location.assign(redirectTo);
        },
      },
    );
  };

  if (interaction.isPending) {
    return null;
  }
  if (interaction.isError) {
    return (
      <Stack maw={560} mx="auto" px="md" py="xl" data-testid="authorize-app-ended">
        <Alert color="orange" title={t('connectedApps.authorize.endedTitle')}>
          {t('connectedApps.authorize.ended')}
        </Alert>
      </Stack>
    );
  }
  const { client, scopes } = interaction.data;
  const site = siteOf(client.uri);
  const isDone = decide.isSuccess;

  return (
    <Stack maw={560} mx="auto" px="md" pt="md" pb={80} gap="lg" data-testid="authorize-app-page">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconApps size={36} aria-hidden />
        <Stack gap={4}>
          <Title order={1} fz="h2" data-testid="authorize-app-title">
            {t('connectedApps.authorize.title', { app: client.name })}
          </Title>
          {site ? (
            <Text c="gray.7" size="sm">
              <IconExternalLink size={14} aria-hidden /> {t('connectedApps.authorize.site', { site })}
            </Text>
          ) : null}
        </Stack>
      </Group>
      <Card withBorder padding="lg">
        <Stack gap="sm">
          <Text fw={600}>{t('connectedApps.authorize.intro')}</Text>
          <List
            spacing="xs"
            icon={<IconCheck size={16} aria-hidden />}
            data-testid="authorize-app-permissions"
          >
            {describeScopes(scopes, t).map((line) => (
              <List.Item key={line}>{line}</List.Item>
            ))}
          </List>
        </Stack>
      </Card>
      <Text size="sm" c="gray.7">
        {t('connectedApps.authorize.notice')}
      </Text>
      {decide.isError ? (
        <Alert color="red" data-testid="authorize-app-error">
          {t('connectedApps.authorize.failed')}
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => answer('deny')}
          disabled={decide.isPending || isDone}
          data-testid="authorize-app-deny"
        >
          {t('connectedApps.authorize.deny')}
        </Button>
        <Button
          onClick={() => answer('allow')}
          loading={decide.isPending && decide.variables.decision === 'allow'}
          disabled={isDone}
          data-testid="authorize-app-allow"
        >
          {t('connectedApps.authorize.allow')}
        </Button>
      </Group>
      {isDone ? (
        <Text size="sm" c="gray.7" role="status">
          {t('connectedApps.authorize.returning')}
        </Text>
      ) : null}
    </Stack>
  );
}
