import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import {
  Alert,
  Badge,
  Button,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconClockHour4, IconDoorEnter, IconMessage } from '@tabler/icons-react';
import type { DeviceCheck, WaitingRoom, WaitingRoomEntry } from '@telemedicina/shared/visits';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AppModal } from '../../../components/modal/AppModal';
import { SectionForbidden } from '../../../components/section-page/SectionForbidden';
import { SectionHeader } from '../../../components/section-page/SectionHeader';
import pageClasses from '../../../components/section-page/SectionPage.module.css';
import { useApiErrorText } from '../../../lib/error-text';
import { formatWaitDuration } from '../../../lib/format';
import { emitWithAck, RealtimeError, useRealtimeConnected, useRealtimeEvent } from '../../../lib/realtime';
import { useMe } from '../../../lib/session';
import { useHasAnyPermission, useLanguage, usePermissions } from '../../../lib/ui-state';
import { useRunningLate } from '../api/visit-actions';
import { useDoctorChoices, useWaitingRoom } from '../api/waiting-room';
import { useAdmissionPrewarm } from '../hooks/use-admission-prewarm';
import { AdmissionPreview } from './AdmissionPreview';
import { riskColor } from './DeviceCheck';
import { useClock } from '../../../lib/use-clock';
import { queryKeys } from '../../../lib/query-keys';

export interface WaitingRoomPageProps {
  /** Fetches the call screen's code ahead (composed in `app/`), so admitting opens it at once. */
  preloadCall?: () => void;
  /** More about an entry on its card (composed in `app/`: the intake forms' scores and flags). */
  renderEntryExtra?: (entry: WaitingRoomEntry) => ReactNode;
}

/**
 * `/admin/waiting-room`: a doctor's queue for today, live: who checked in and since when, who is
 * online, the device-check risk; admit (opens the call), message a waiting patient, and the
 * "running late" notice. Staff pick the doctor. While someone waits, the doctor's camera and
 * microphone preview is on and the call is prepared (see `useAdmissionPrewarm`): admitting opens
 * the call screen at once with the same camera and the connection already made.
 */
export function WaitingRoomPage({ preloadCall, renderEntryExtra }: WaitingRoomPageProps = {}) {
  const { t } = useTranslation();
  const isAllowed = useHasAnyPermission(['visits.host', 'appointments.read.any']);
  return (
    <div className={pageClasses.page} data-testid="waiting-room-page">
      <SectionHeader title={t('visit.room.title')} description={t('visit.room.description')} />
      {isAllowed ? (
        <WaitingRoomView preloadCall={preloadCall} renderEntryExtra={renderEntryExtra} />
      ) : (
        <SectionForbidden />
      )}
    </div>
  );
}

function WaitingRoomView({ preloadCall, renderEntryExtra }: WaitingRoomPageProps) {
  const { t } = useTranslation();
  const permissions = usePermissions();
  const me = useMe().data;
  const isHost = permissions.includes('visits.host');
  const doctors = useDoctorChoices(!isHost);
  const [chosen, setChosen] = useState<string | null>(null);
  const doctorId = isHost ? (me?.user.id ?? null) : (chosen ?? doctors.data?.[0]?.id ?? null);
  const live = useLiveWaitingRoom(doctorId);

  return (
    <Stack gap="md">
      {!isHost ? (
        <NativeSelect
          label={t('visit.room.doctor')}
          value={doctorId ?? ''}
          onChange={(event) => setChosen(event.currentTarget.value)}
          data={(doctors.data ?? []).map((doctor) => ({ value: doctor.id, label: doctor.name }))}
          maw={360}
          data-testid="waiting-room-doctor"
        />
      ) : null}
      {doctorId !== null && live.room ? (
        <WaitingRoomList
          room={live.room}
          canHost={isHost}
          preloadCall={preloadCall}
          renderEntryExtra={renderEntryExtra}
        />
      ) : live.error ? (
        <Alert color="red" variant="light">
          {live.error}
        </Alert>
      ) : (
        <Loader />
      )}
    </Stack>
  );
}

/** The waiting room from `GET`, then kept live by `waitingRoom.watch` (again after each reconnection). */
function useLiveWaitingRoom(doctorId: string | null): { room: WaitingRoom | null; error: string | null } {
  const queryClient = useQueryClient();
  const errorText = useApiErrorText();
  const { t } = useTranslation();
  const query = useWaitingRoom(doctorId);
  const connected = useRealtimeConnected();
  const [watchError, setWatchError] = useState<string | null>(null);
  useEffect(() => {
    if (doctorId === null || !connected) {
      return;
    }
    let active = true;
    emitWithAck('waitingRoom.watch', { doctorId }).then(
      (room) => {
        if (active) {
          queryClient.setQueryData(queryKeys.waitingRoom.ofDoctor(doctorId), room);
          setWatchError(null);
        }
      },
      (error: unknown) => {
        if (active) {
          setWatchError(
            error instanceof RealtimeError
              ? t(`errors.codes.${error.code}` as 'errors.unexpected', {
                  defaultValue: t('errors.unexpected'),
                })
              : t('errors.unexpected'),
          );
        }
      },
    );
    return () => {
      active = false;
    };
  }, [doctorId, connected, queryClient, t]);
  useRealtimeEvent(
    'waitingRoom.updated',
    (room) => {
      if (room.doctorId === doctorId) {
        queryClient.setQueryData(queryKeys.waitingRoom.ofDoctor(room.doctorId), room);
      }
    },
    doctorId !== null,
  );
  return {
    room: query.data ?? null,
    error: query.isError ? errorText(query.error) : watchError,
  };
}

function WaitingRoomList({
  room,
  canHost,
  preloadCall,
  renderEntryExtra,
}: {
  room: WaitingRoom;
  canHost: boolean;
  preloadCall?: () => void;
  renderEntryExtra?: (entry: WaitingRoomEntry) => ReactNode;
}) {
  const { t } = useTranslation();
  const language = useLanguage();
  const clock = useClock();
  const navigate = useNavigate();
  const prewarm = useAdmissionPrewarm(room, canHost, preloadCall);
  const runningLate = useRunningLate();
  const [messageTo, setMessageTo] = useState<WaitingRoomEntry | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);

  // The call screen opens at once with the preview's camera and the prepared connection, joins
  // the call and then admits (so the announcement reaches it and its prepared offer goes out).
  const handleAdmit = (appointmentId: string, participantKey?: string) => {
    prewarm.handOff(appointmentId, participantKey);
    void navigate(`/admin/visits/${appointmentId}`);
  };
  const handleLate = (minutes: number | null) => {
    const target = room.entries[0];
    if (target) {
      runningLate.mutate({ appointmentId: target.appointmentId, minutes });
    }
  };

  return (
    <Stack gap="md">
      {canHost ? (
        <Group gap="sm" align="flex-end">
          <NativeSelect
            label={t('visit.room.late')}
            value={String(room.runningLateMinutes ?? 0)}
            onChange={(event) => {
              const minutes = Number(event.currentTarget.value);
              handleLate(minutes === 0 ? null : minutes);
            }}
            data={[0, 5, 10, 15, 20, 30, 45, 60].map((minutes) => ({
              value: String(minutes),
              label:
                minutes === 0 ? t('visit.room.onTime') : formatWaitDuration(minutes * 60, language, 'minute'),
            }))}
            disabled={room.entries.length === 0}
            maw={240}
            data-testid="waiting-room-late"
          />
          {room.runningLateMinutes ? (
            <Badge color="orange" variant="light" leftSection={<IconClockHour4 size={14} />}>
              {t('visit.room.lateBadge', {
                duration: formatWaitDuration(room.runningLateMinutes * 60, language, 'minute'),
              })}
            </Badge>
          ) : null}
        </Group>
      ) : null}
      {prewarm.isOffered ? <AdmissionPreview prewarm={prewarm} /> : null}
      {room.entries.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text c="gray.7" ta="center" data-testid="waiting-room-empty">
            {t('visit.room.empty')}
          </Text>
        </Paper>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {room.entries.map((entry) => {
            const isWaiting = entry.checkedInAt !== null && entry.admittedAt === null;
            return (
              <Paper
                key={entry.appointmentId}
                component="li"
                withBorder
                radius="md"
                p="md"
                data-testid="waiting-room-entry"
                data-appointment={entry.appointmentId}
              >
                <Group justify="space-between" gap="sm" align="center">
                  <Stack gap={4} style={{ minWidth: 0, flex: '1 1 260px' }}>
                    <Group gap={8} wrap="nowrap">
                      <span
                        role="img"
                        aria-label={entry.online ? t('visit.room.online') : t('visit.room.offline')}
                        title={entry.online ? t('visit.room.online') : t('visit.room.offline')}
                        data-testid="waiting-room-online"
                        data-online={entry.online}
                        style={{
                          width: 10,
                          height: 10,
                          borderRadius: 5,
                          flex: 'none',
                          background: entry.online
                            ? 'var(--mantine-color-teal-6)'
                            : 'var(--mantine-color-gray-4)',
                        }}
                      />
                      <Text fw={600} truncate="end" data-testid="waiting-room-patient">
                        {entry.patient.name}
                      </Text>
                    </Group>
                    <Text size="sm" c="gray.7">
                      {clock.timeRange(entry.startsAt, entry.endsAt)} ·{' '}
                      {entry.admittedAt
                        ? t('visit.room.inCall')
                        : entry.checkedInAt
                          ? t('visit.room.waitingFor', {
                              duration: formatWaitDuration(
                                Math.max(60, (now - Date.parse(entry.checkedInAt)) / 1000),
                                language,
                                'minute',
                              ),
                            })
                          : t('visit.room.notCheckedIn')}
                    </Text>
                    <Group gap={6}>
                      <RiskBadge check={entry.deviceCheck} />
                      {entry.waitingGuests.map((guest) => (
                        <Badge
                          key={guest.key}
                          variant="outline"
                          color="grape"
                          data-testid="waiting-room-guest"
                        >
                          {guest.name} · {t(`visit.roles.${guest.role}`)}
                        </Badge>
                      ))}
                    </Group>
                    {renderEntryExtra?.(entry)}
                  </Stack>
                  {canHost ? (
                    <Group gap="xs">
                      {isWaiting ? (
                        <Button
                          variant="default"
                          leftSection={<IconMessage size={16} />}
                          onClick={() => setMessageTo(entry)}
                          data-testid="waiting-room-message"
                        >
                          {t('visit.room.message')}
                        </Button>
                      ) : null}
                      {entry.waitingGuests.map((guest) => (
                        <Button
                          key={guest.key}
                          variant="light"
                          onClick={() => handleAdmit(entry.appointmentId, guest.key)}
                          data-testid="waiting-room-admit-guest"
                        >
                          {t('visit.room.admitName', { name: guest.name })}
                        </Button>
                      ))}
                      {isWaiting ? (
                        <Button
                          leftSection={<IconDoorEnter size={16} />}
                          onClick={() => handleAdmit(entry.appointmentId)}
                          data-testid="waiting-room-admit"
                        >
                          {t('visit.room.admit')}
                        </Button>
                      ) : (
                        <Button
                          variant="light"
                          onClick={() => void navigate(`/admin/visits/${entry.appointmentId}`)}
                          data-testid="waiting-room-open"
                        >
                          {t('visit.room.open')}
                        </Button>
                      )}
                    </Group>
                  ) : null}
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
      <MessageModal entry={messageTo} onClose={() => setMessageTo(null)} />
    </Stack>
  );
}

function RiskBadge({ check }: { check: DeviceCheck | null }) {
  const { t } = useTranslation();
  if (check === null) {
    return (
      <Badge variant="light" color="gray" data-testid="waiting-room-risk" data-risk="none">
        {t('visit.room.notChecked')}
      </Badge>
    );
  }
  const { result } = check;
  const details = [
    `${t('visit.check.camera')}: ${t(`visit.deviceStatus.${result.camera}`)}`,
    `${t('visit.check.microphone')}: ${t(`visit.deviceStatus.${result.microphone}`)}`,
    `${t('visit.check.speaker')}: ${t(`visit.check.speakerState.${result.speaker}`)}`,
    `${t('visit.check.network')}: ${t(`visit.check.connectivity.${result.connectivity}`)}`,
    result.browser ? `${t('visit.check.browser')}: ${result.browser}` : null,
  ].filter(Boolean);
  return (
    <Tooltip
      label={
        <Stack gap={0}>
          {details.map((line) => (
            <Text key={line} size="xs">
              {line}
            </Text>
          ))}
        </Stack>
      }
      multiline
      w={280}
    >
      <Badge
        variant="light"
        color={riskColor[check.risk]}
        data-testid="waiting-room-risk"
        data-risk={check.risk}
        tabIndex={0}
      >
        {t(`visit.risk.${check.risk}`)}
      </Badge>
    </Tooltip>
  );
}

function MessageModal({ entry, onClose }: { entry: WaitingRoomEntry | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  const handleSend = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!entry || text.trim() === '') {
      return;
    }
    setIsSending(true);
    try {
      await emitWithAck('waitingRoom.message', { appointmentId: entry.appointmentId, text: text.trim() });
      setText('');
      setError(null);
      onClose();
    } catch (failure) {
      setError(
        failure instanceof RealtimeError
          ? t(`errors.codes.${failure.code}` as 'errors.unexpected', { defaultValue: t('errors.unexpected') })
          : t('errors.unexpected'),
      );
    } finally {
      setIsSending(false);
    }
  };
  return (
    <AppModal
      opened={entry !== null}
      onClose={onClose}
      title={<Text fw={650}>{t('visit.room.messageTitle', { name: entry?.patient.name ?? '' })}</Text>}
    >
      <form onSubmit={(event) => void handleSend(event)}>
        <Stack gap="sm" data-testid="waiting-room-message-dialog">
          <Textarea
            label={t('visit.room.messageLabel')}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            maxLength={500}
            autosize
            minRows={3}
            data-testid="waiting-room-message-text"
          />
          {error ? (
            <Alert color="red" variant="light">
              {error}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={isSending} data-testid="waiting-room-message-send">
              {t('visit.room.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </AppModal>
  );
}
