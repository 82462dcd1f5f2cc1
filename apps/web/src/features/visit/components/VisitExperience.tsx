import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Anchor.layer.css';
import { Alert, Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPhone } from '@tabler/icons-react';
import type { DeviceCheckResult, VisitState, WaitingRoom } from '@telemedicina/shared/visits';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiErrorText } from '../../../lib/error-text';
import { emitWithAck, useRealtimeConnected, useRealtimeEvent } from '../../../lib/realtime';
import { saveDeviceCheck } from '../api/save-device-check';
import { admit } from '../api/visit-actions';
import { useVisitState } from '../api/visit-state';
import { screenFor, type VisitScreen } from '../phase-screen';
import { claimCallHandoff, peekCallHandoff } from '../hooks/call-handoff';
import { useLocalMedia } from '../hooks/use-local-media';
import { useIceServerRenewal } from '../hooks/use-ice-server-renewal';
import { usePeerMesh } from '../hooks/use-peer-mesh';
import { usePreparedPeerMesh } from '../hooks/use-prepared-peer-mesh';
import { useVisitSession } from '../hooks/use-visit-session';
import { CallView, type CallSidePanel } from './CallView';
import { DeviceCheck } from './DeviceCheck';
import { VisitEnded } from './VisitEnded';
import { VisitLobby } from './VisitLobby';
import { useClock } from '../../../lib/use-clock';

/** What other features add to the visit, composed in `app/` (features never import each other). */
export interface VisitSlots {
  /** A tab beside the chat during the call (a drawer on a phone), e.g. the doctor's note. */
  callPanel?: (state: VisitState) => CallSidePanel | null;
  /** Shown under the lobby and the waiting room, e.g. the patient's vitals form. */
  lobbyExtra?: (state: VisitState) => ReactNode;
}

export interface VisitExperienceProps {
  appointmentId: string;
  /** A guest's page: no links into the staff area, and the device check is not stored. */
  isGuest?: boolean;
  slots?: VisitSlots;
}

const deviceCheckSessionKey = (appointmentId: string) => `telemedicina.visit.checked.${appointmentId}`;

function wasCheckedThisSession(appointmentId: string): boolean {
  try {
    return sessionStorage.getItem(deviceCheckSessionKey(appointmentId)) === '1';
  } catch {
    return false;
  }
}

/**
 * One visit from the participant's side, following the server's phase: device check → check-in
 * and waiting room → call → the end. The real-time session, the camera and the peer connections
 * live here, above the screens, so moving from the waiting room into the call keeps them (and
 * an offer that arrives while the screen changes is not lost).
 */
export function VisitExperience({ appointmentId, isGuest = false, slots }: VisitExperienceProps) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const visit = useVisitState(appointmentId, !isGuest);
  const [isChecked, setIsChecked] = useState(() => wasCheckedThisSession(appointmentId));
  const [saveError, setSaveError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  /** A patient or guest who hung up: out of the call (camera off, connections closed) until they come back. */
  const [hasLeft, setHasLeft] = useState(false);
  const state = visit.data;
  // Short-lived TURN credentials are asked for again before they lapse (a long call, a late guest).
  useIceServerRenewal(state, isGuest);
  const phaseScreen = state ? screenFor(state, { deviceCheckDone: isChecked }) : null;
  const screen: VisitScreen | 'left' | null =
    phaseScreen === 'call' && hasLeft && state?.canHost === false ? 'left' : phaseScreen;
  const isLive = screen === 'lobby' || screen === 'waiting' || screen === 'call';
  // Admitted from the waiting room: its live camera, its prepared connections and whom to admit.
  const [handoff] = useState(() => peekCallHandoff(appointmentId));
  useEffect(() => {
    if (handoff) {
      claimCallHandoff(handoff);
    }
  }, [handoff]);
  // With a prepared call the waiting-room page already joined and admitted; else this page does.
  const pendingAdmission = useRef(handoff && !handoff.admission ? handoff.admit : null);
  const [admitError, setAdmitError] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    handoff?.admission?.catch((error: unknown) => {
      if (active) {
        setAdmitError(errorText(error));
      }
    });
    return () => {
      active = false;
    };
  }, [handoff, errorText]);
  const media = useLocalMedia(isLive, { initial: handoff?.media });
  const callSelfKey =
    state && screen !== 'ended' && screen !== 'closed' && screen !== 'left' ? state.self.key : null;
  const preparedPeers = usePreparedPeerMesh(
    handoff?.prepared ?? null,
    state?.iceServers ?? [],
    media.stream,
    state?.iceServersTtlSeconds ?? null,
  );
  const ownPeers = usePeerMesh({
    appointmentId,
    selfKey: handoff?.prepared ? null : callSelfKey,
    iceServers: state?.iceServers ?? [],
    iceServersTtlSeconds: state?.iceServersTtlSeconds ?? null,
    localStream: media.stream,
  });
  const peers = handoff?.prepared ? preparedPeers : ownPeers;
  const { close, rebuild, handleSignal, mesh } = peers;
  const session = useVisitSession(
    appointmentId,
    (state !== undefined || isGuest) && screen !== 'closed' && screen !== 'left',
    {
      // Whoever was in the call first opens the connection (they get `participantJoined`, or
      // see us join again after a reload, and ask us to start over); this page answers. A page
      // that opened connections itself on joining could race with those and keep a stale one.
      onParticipantJoined: (participant) => rebuild(participant.key),
      // Someone whose connection dropped keeps their connection (shown as reconnecting) until
      // they rejoin, when it is rebuilt, or the wait for them ends.
      onParticipantLeft: (key, reason) => {
        if (reason === 'left') {
          close(key);
        }
      },
      onSignal: handleSignal,
      // Admitting from the waiting room happens here, once this page is in the call: the
      // announcement of the admitted person reaches it and the prepared offer goes out at once.
      onJoined: () => {
        const request = pendingAdmission.current;
        if (request) {
          pendingAdmission.current = null;
          admit(appointmentId, request).catch((error: unknown) => setAdmitError(errorText(error)));
        }
      },
    },
  );

  useEffect(() => {
    if (screen === 'ended' || screen === 'closed' || screen === 'left') {
      mesh?.closeAll();
    }
  }, [screen, mesh]);

  const { waiting, admissionKeys, isKnown } = useHostWaiting(state);
  // The host in the call prepares a connection to each person waiting to be admitted: its offer is
  // ready when they come in (see PeerMesh.prepare). Not before the waiting room is known: the
  // connections handed over from the waiting-room page would be dropped.
  const preparedKeys = screen === 'call' ? admissionKeys.join(' ') : '';
  useEffect(() => {
    if (isKnown) {
      mesh?.prepare(preparedKeys === '' ? [] : preparedKeys.split(' '));
    }
  }, [mesh, preparedKeys, isKnown]);

  const handleSave = useCallback(
    async (result: DeviceCheckResult) => {
      setIsSaving(true);
      setSaveError(null);
      try {
        if (!isGuest) {
          await saveDeviceCheck(appointmentId, result);
        }
        try {
          sessionStorage.setItem(deviceCheckSessionKey(appointmentId), '1');
        } catch {
          // Private mode: the check is asked again after a reload.
        }
        setIsChecked(true);
      } catch (error) {
        setSaveError(errorText(error));
      } finally {
        setIsSaving(false);
      }
    },
    [appointmentId, isGuest, errorText],
  );

  if (!state || screen === null) {
    // A guest's state may come only with the join acknowledgement.
    if ((!isGuest && visit.isPending) || (isGuest && session.joinError === null)) {
      return <Loader />;
    }
    return (
      <Alert color="red" variant="light" data-testid="visit-error">
        {visit.isError
          ? errorText(visit.error)
          : t(`errors.codes.${session.joinError}` as 'errors.unexpected', {
              defaultValue: t('errors.unexpected'),
            })}
      </Alert>
    );
  }

  return (
    <Stack gap={screen === 'call' ? 'xs' : 'md'} data-testid="visit-page" data-screen={screen}>
      <VisitHeader state={state} isGuest={isGuest} isCompact={screen === 'call'} />
      {session.joinError && screen !== 'ended' ? (
        <Alert color="orange" variant="light" data-testid="visit-join-error">
          {t(`errors.codes.${session.joinError}` as 'errors.unexpected', {
            defaultValue: t('errors.unexpected'),
          })}
        </Alert>
      ) : null}
      {admitError ? (
        <Alert color="red" variant="light" data-testid="visit-admit-error">
          {admitError}
        </Alert>
      ) : null}
      {screen === 'device_check' ? (
        <DeviceCheck
          iceServers={state.iceServers}
          onSave={handleSave}
          isSaving={isSaving}
          saveError={saveError}
          continueLabel={t('visit.check.continue')}
        />
      ) : null}
      {screen === 'lobby' || screen === 'waiting' ? (
        <VisitLobby
          state={state}
          media={media}
          waitingMessages={session.waitingMessages}
          checkPath={isGuest ? undefined : `/admin/visits/${appointmentId}/check`}
        />
      ) : null}
      {(screen === 'lobby' || screen === 'waiting') && !isGuest ? slots?.lobbyExtra?.(state) : null}
      {screen === 'call' ? (
        <CallView
          state={state}
          session={session}
          media={media}
          peers={peers}
          waiting={waiting}
          sidePanel={isGuest ? null : (slots?.callPanel?.(state) ?? null)}
          onLeave={state.canHost ? undefined : () => setHasLeft(true)}
        />
      ) : null}
      {screen === 'left' ? (
        <Paper withBorder radius="lg" p="lg" data-testid="visit-left">
          <Stack gap="sm" align="flex-start">
            <Title order={2} size="h3">
              {t('visit.call.left')}
            </Title>
            <Text>{t('visit.call.leftBody')}</Text>
            <Group gap="sm">
              <Button
                leftSection={<IconPhone size={18} />}
                onClick={() => setHasLeft(false)}
                data-testid="visit-rejoin"
              >
                {t('visit.call.rejoin')}
              </Button>
              {!isGuest ? (
                <Button component={Link} to={`/admin/appointments/${appointmentId}`} variant="default">
                  {t('visit.backToAppointment')}
                </Button>
              ) : null}
            </Group>
          </Stack>
        </Paper>
      ) : null}
      {screen === 'ended' || screen === 'closed' ? (
        <VisitEnded state={state} chat={session.chat} showLinks={!isGuest} />
      ) : null}
      {screen === 'overview' ? (
        <Text data-testid="visit-overview">{t(`visit.phase.${state.phase}`)}</Text>
      ) : null}
    </Stack>
  );
}

function VisitHeader({
  state,
  isGuest,
  isCompact,
}: {
  state: VisitState;
  isGuest: boolean;
  isCompact: boolean;
}) {
  const { t } = useTranslation();
  const clock = useClock();
  const when = clock.longDateTime(state.startsAt);
  const other = state.self.role === 'doctor' ? state.patient.name : state.doctor.name;
  return (
    <Group justify="space-between" align="flex-end" gap="xs" wrap="nowrap">
      <Stack gap={2} style={{ minWidth: 0 }}>
        {!isGuest ? (
          <Anchor component={Link} to={`/admin/appointments/${state.appointmentId}`} size="sm">
            <Group gap={4} component="span">
              <IconArrowLeft size={16} />
              {t('visit.backToAppointment')}
            </Group>
          </Anchor>
        ) : null}
        <Title
          order={1}
          size={isCompact ? 'h4' : 'h2'}
          lineClamp={isCompact ? 1 : undefined}
          data-testid="visit-title"
        >
          {t('visit.title', { name: other })}
        </Title>
        {isCompact ? null : (
          <Text size="sm" c="gray.7">
            {when}
          </Text>
        )}
      </Stack>
    </Group>
  );
}

/**
 * For the host: who waits for this visit (the patient, guests), from the doctor's live waiting
 * room, so the call screen can admit them; `admissionKeys` are the participant keys of those
 * waiting to be admitted whose page is there (checked-in patient, waiting guests).
 */
function useHostWaiting(state: VisitState | undefined) {
  const [room, setRoom] = useState<WaitingRoom | null>(null);
  const doctorId = state?.canHost ? state.doctor.id : null;
  const connected = useRealtimeConnected();
  useEffect(() => {
    if (doctorId === null || !connected) {
      return;
    }
    let active = true;
    emitWithAck('waitingRoom.watch', { doctorId }).then(
      (answer) => {
        if (active) {
          setRoom(answer);
        }
      },
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [doctorId, connected]);
  useRealtimeEvent(
    'waitingRoom.updated',
    (updated) => {
      if (updated.doctorId === doctorId) {
        setRoom(updated);
      }
    },
    doctorId !== null,
  );
  const entry = room?.entries.find((item) => item.appointmentId === state?.appointmentId);
  const isKnown = room !== null;
  if (!state || !entry) {
    return { waiting: [], admissionKeys: [], isKnown };
  }
  const list: { key?: string; name: string; role: VisitState['self']['role'] }[] = [];
  // The checked-in patient not yet admitted (the host's own phase is the call, whatever theirs is).
  if (entry.status === 'checked_in' && entry.checkedInAt !== null && entry.admittedAt === null) {
    list.push({ name: entry.patient.name, role: 'patient' });
  }
  for (const guest of entry.waitingGuests) {
    list.push({ key: guest.key, name: guest.name, role: guest.role });
  }
  const admissionKeys = entry.waitingGuests.map((guest) => guest.key);
  if (entry.status === 'checked_in' && entry.admittedAt === null && entry.online) {
    admissionKeys.unshift(`user:${entry.patient.id}`);
  }
  return { waiting: list, admissionKeys, isKnown };
}
