import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconCamera,
  IconClockHour4,
  IconMessageCircle,
  IconMicrophone,
  IconMicrophoneOff,
  IconVideoOff,
} from '@tabler/icons-react';
import type { VisitState } from '@telemedicina/shared/visits';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatWaitDuration } from '../../../lib/format';
import { useApiErrorText } from '../../../lib/error-text';
import { useLanguage } from '../../../lib/ui-state';
import { useCheckIn } from '../api/visit-actions';
import type { LocalMedia } from '../hooks/use-local-media';
import { VideoTile } from './VideoTile';
import classes from './Visit.module.css';
import { useClock } from '../../../lib/use-clock';

/**
 * Before the call, for the patient or a guest: the check-in (with a countdown while it is too
 * early), then the place in the doctor's queue with an estimate, the running-late notice, the
 * doctor's messages and a self preview with microphone and camera toggles.
 */
export function VisitLobby({
  state,
  media,
  waitingMessages,
  checkPath,
}: {
  state: VisitState;
  media: LocalMedia;
  waitingMessages: readonly { text: string; at: string }[];
  /** Where "check devices again" goes (absent for guests). */
  checkPath?: string;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const clock = useClock();
  const errorText = useApiErrorText();
  const checkIn = useCheckIn(state.appointmentId);
  const [now, setNow] = useState(() => Date.now());
  const { isMuted, isCameraOff } = media;

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);

  const opensIn = Date.parse(state.checkInOpensAt) - now;
  const isWaiting = state.phase === 'waiting';
  const isGuest = state.self.role === 'interpreter' || state.self.role === 'companion';

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" data-testid="visit-lobby" data-phase={state.phase}>
      <Stack gap="md">
        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} size="h3">
              {isWaiting ? t('visit.waiting.title') : t('visit.lobby.title')}
            </Title>
            <Text size="sm" c="gray.7">
              {t('visit.lobby.with', {
                doctor: state.doctor.name,
                time: clock.time(state.startsAt),
              })}
            </Text>
            {isWaiting ? (
              <Stack gap={6} data-testid="visit-waiting">
                <Group gap="xs">
                  <IconClockHour4 size={20} aria-hidden />
                  <Text fw={600} data-testid="visit-queue-position">
                    {state.queuePosition === null
                      ? t('visit.waiting.soon')
                      : state.queuePosition <= 1
                        ? t('visit.waiting.next')
                        : t('visit.waiting.position', { position: state.queuePosition })}
                  </Text>
                </Group>
                {state.estimatedWaitMinutes !== null ? (
                  <Text size="sm" data-testid="visit-estimate">
                    {state.estimatedWaitMinutes <= 0
                      ? t('visit.waiting.anyMoment')
                      : t('visit.waiting.estimate', {
                          duration: formatWaitDuration(state.estimatedWaitMinutes * 60, language, 'minute'),
                        })}
                  </Text>
                ) : null}
                <Text size="sm" c="gray.7">
                  {isGuest ? t('visit.waiting.guestHint') : t('visit.waiting.hint')}
                </Text>
              </Stack>
            ) : state.phase === 'too_early' ? (
              <Stack gap={6}>
                <Text size="sm" data-testid="visit-countdown">
                  {t('visit.lobby.opensIn', {
                    duration: formatWaitDuration(Math.max(1, opensIn / 1000), language),
                    time: clock.time(state.checkInOpensAt),
                  })}
                </Text>
                <Button disabled>{t('visit.lobby.checkIn')}</Button>
              </Stack>
            ) : (
              <Stack gap={6}>
                <Text size="sm">{t('visit.lobby.ready')}</Text>
                <Button
                  size="md"
                  onClick={() => checkIn.mutate()}
                  loading={checkIn.isPending}
                  data-testid="visit-check-in"
                >
                  {t('visit.lobby.checkIn')}
                </Button>
                {checkIn.isError ? (
                  <Alert color="red" variant="light" data-testid="visit-check-in-error">
                    {errorText(checkIn.error)}
                  </Alert>
                ) : null}
              </Stack>
            )}
          </Stack>
        </Paper>
        {state.runningLateMinutes ? (
          <Alert color="orange" variant="light" icon={<IconClockHour4 />} data-testid="visit-running-late">
            {t('visit.waiting.late', {
              duration: formatWaitDuration(state.runningLateMinutes * 60, language, 'minute'),
            })}
          </Alert>
        ) : null}
        {waitingMessages.map((message) => (
          <Alert
            key={message.at + message.text}
            color="blue"
            variant="light"
            icon={<IconMessageCircle />}
            title={t('visit.waiting.messageFrom', { doctor: state.doctor.name })}
            data-testid="visit-waiting-message"
          >
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {message.text}
            </Text>
          </Alert>
        ))}
      </Stack>
      <Stack gap="sm">
        <div className={classes.preview}>
          <VideoTile
            stream={media.stream}
            label={t('visit.call.you')}
            isSelf
            isMuted={isMuted}
            isCameraOff={isCameraOff || media.cameraProblem !== null}
            placeholder={t('visit.call.cameraOff')}
            isConnecting={media.isStarting}
            testId="visit-lobby-preview"
            className={classes.preview}
          />
        </div>
        <Group justify="center" gap="xs">
          <Tooltip label={isMuted ? t('visit.call.unmute') : t('visit.call.mute')}>
            <ActionIcon
              size={44}
              radius="xl"
              variant={isMuted ? 'filled' : 'default'}
              color={isMuted ? 'red' : undefined}
              aria-label={isMuted ? t('visit.call.unmute') : t('visit.call.mute')}
              aria-pressed={isMuted}
              onClick={() => media.setMuted(!isMuted)}
            >
              {isMuted ? <IconMicrophoneOff size={20} /> : <IconMicrophone size={20} />}
            </ActionIcon>
          </Tooltip>
          <Tooltip label={isCameraOff ? t('visit.call.cameraOn') : t('visit.call.cameraOffAction')}>
            <ActionIcon
              size={44}
              radius="xl"
              variant={isCameraOff ? 'filled' : 'default'}
              color={isCameraOff ? 'red' : undefined}
              aria-label={isCameraOff ? t('visit.call.cameraOn') : t('visit.call.cameraOffAction')}
              aria-pressed={isCameraOff}
              onClick={() => media.setCameraOff(!isCameraOff)}
            >
              {isCameraOff ? <IconVideoOff size={20} /> : <IconCamera size={20} />}
            </ActionIcon>
          </Tooltip>
          {checkPath ? (
            <Button component={Link} to={checkPath} variant="subtle" size="sm">
              {t('visit.lobby.recheck')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </SimpleGrid>
  );
}
