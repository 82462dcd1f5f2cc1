import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import { Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import type { VisitState } from '@telemedicina/shared/visits';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { useViewerTimeZone } from '../../../lib/use-clock';
import { useLanguage } from '../../../lib/ui-state';
import { getChatHistory } from '../api/chat-history';
import { emptyChatLog, mergeMessages, type ChatLog } from '../chat-log';
import { ChatPanel } from './ChatPanel';
import classes from './Visit.module.css';
import { queryKeys } from '../../../lib/query-keys';

/** After the visit: its times and the chat, kept readable. */
export function VisitEnded({
  state,
  chat,
  showLinks,
}: {
  state: VisitState;
  chat: ChatLog;
  showLinks: boolean;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const timeZone = useViewerTimeZone();
  const history = useQuery({
    queryKey: queryKeys.visit.history(state.appointmentId),
    queryFn: () => getChatHistory(state.appointmentId),
    enabled: state.phase === 'ended' && showLinks,
    retry: false,
  });
  const log = history.data
    ? mergeMessages(chat.messages.length > 0 ? chat : emptyChatLog, history.data.data)
    : chat;
  const isEnded = state.phase === 'ended';
  // Each person reads about the visit from where they sat: the doctor about the patient (and the
  // note still to finish), the patient about their doctor, a guest about the two of them.
  const role = state.self.role;
  const endedBody =
    role === 'doctor'
      ? t('visit.ended.bodyDoctor', { patient: state.patient.name })
      : role === 'patient'
        ? t('visit.ended.body', { doctor: state.doctor.name })
        : t('visit.ended.bodyOther', { patient: state.patient.name, doctor: state.doctor.name });
  const times: [string, string | null][] = [
    [t('visit.ended.checkedIn'), state.checkedInAt],
    [t('visit.ended.admitted'), state.admittedAt],
    [t('visit.ended.started'), state.startedAt],
    [t('visit.ended.ended'), state.endedAt],
  ];
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" data-testid="visit-ended" data-phase={state.phase}>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="md" align="flex-start">
          <ThemeIcon size={48} radius="xl" variant="light" color={isEnded ? 'teal' : 'gray'}>
            {isEnded ? <IconCircleCheck size={28} /> : <IconCircleX size={28} />}
          </ThemeIcon>
          <Title order={2} size="h3">
            {isEnded ? t('visit.ended.title') : t('visit.ended.closedTitle')}
          </Title>
          <Text size="sm" c="gray.7" data-testid="visit-ended-body">
            {isEnded ? endedBody : t('visit.ended.closedBody')}
          </Text>
          {isEnded ? (
            <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '4px 16px' }}>
              {times.map(([label, value]) => (
                <div key={label} style={{ display: 'contents' }}>
                  <dt>
                    <Text size="sm" c="gray.7">
                      {label}
                    </Text>
                  </dt>
                  <dd style={{ margin: 0 }}>
                    <Text size="sm">{value ? formatDateTime(value, language, timeZone) : '—'}</Text>
                  </dd>
                </div>
              ))}
            </dl>
          ) : null}
          {showLinks ? (
            <Group gap="sm">
              {isEnded && role === 'doctor' ? (
                <Button
                  component={Link}
                  to={`/admin/appointments/${state.appointmentId}/note`}
                  data-testid="visit-ended-note"
                >
                  {t('visit.ended.completeNote')}
                </Button>
              ) : null}
              <Button component={Link} to={`/admin/appointments/${state.appointmentId}`} variant="default">
                {t('visit.ended.backToAppointment')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </Paper>
      {isEnded ? (
        <div style={{ maxHeight: 460, display: 'flex' }}>
          <ChatPanel
            appointmentId={state.appointmentId}
            selfKey={state.self.key}
            chat={log}
            typing={[]}
            canWrite={false}
            canShareFiles={false}
            className={classes.chatStandalone}
          />
        </div>
      ) : null}
    </SimpleGrid>
  );
}
