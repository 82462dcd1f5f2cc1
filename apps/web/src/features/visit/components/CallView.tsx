import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Popover.layer.css';
import '@mantine/core/styles/Drawer.layer.css';
import '@mantine/core/styles/ModalBase.layer.css';
import '@mantine/core/styles/Overlay.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Indicator.layer.css';
import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Tabs.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import {
  ActionIcon,
  Badge,
  Button,
  Drawer,
  Group,
  Indicator,
  Menu,
  Tabs,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  IconCamera,
  IconCameraRotate,
  IconClockHour4,
  IconDots,
  IconFileText,
  IconMaximize,
  IconMessage,
  IconMicrophone,
  IconMicrophoneOff,
  IconNotes,
  IconPhoneOff,
  IconPrescription,
  IconScreenShare,
  IconScreenShareOff,
  IconUserPlus,
  IconVideoOff,
} from '@tabler/icons-react';
import type { ChatMessage, VisitParticipant, VisitState } from '@telemedicina/shared';
import clsx from 'clsx';
import { useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/modal/ConfirmDialog';
import { useApiErrorText } from '../../../lib/error-text';
import { useAdmit, useEndVisit } from '../api/visit-actions';
import { indicatorOf } from '../quality-policy';
import { useCallQuality } from '../hooks/use-call-quality';
import type { LocalMedia } from '../hooks/use-local-media';
import type { PeerMeshHandle } from '../hooks/use-peer-mesh';
import type { VisitSession } from '../hooks/use-visit-session';
import { ChatPanel } from './ChatPanel';
import { InviteGuestModal } from './InviteGuestModal';
import { VideoTile } from './VideoTile';
import classes from './Visit.module.css';

/** A panel another feature puts beside the chat (a tab on a desktop, a drawer on a phone). */
export interface CallSidePanel {
  label: string;
  content: ReactNode;
}

export interface CallViewProps {
  state: VisitState;
  session: VisitSession;
  media: LocalMedia;
  peers: PeerMeshHandle;
  /** For the host: who waits to be admitted to this visit (patient and guests). */
  waiting: readonly { key?: string; name: string; role: VisitParticipant['role'] }[];
  /** Beside the chat (the doctor's note), when the page composes one. */
  sidePanel?: CallSidePanel | null;
  /** Hang up for a participant who does not host (patient, guest): leave the call, the visit stays open. */
  onLeave?: () => void;
}

/** Where the call fills the screen with the controls at the thumb: a phone upright or on its side. */
export const phoneCallQuery = '(max-width: 900px), (max-height: 500px)';

const pad = (value: number) => String(value).padStart(2, '0');

function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/**
 * The call: a tile per other participant (up to three), the own view small and mirrored, the
 * controls (microphone, camera, camera switch, screen share, full screen, chat, invite, and the
 * hang-up: the host ends the visit, anyone else leaves the call), the timer and the connection
 * indicator; the chat beside the video. On a phone the call fills the screen, the chat and the
 * doctor's tools open from the controls, which sit at the bottom (at the side when the phone lies
 * on its side) within reach of a thumb.
 */
export function CallView({
  state,
  session,
  media,
  peers,
  waiting,
  sidePanel = null,
  onLeave,
}: CallViewProps) {
  const { t } = useTranslation();
  const errorText = useApiErrorText();
  const isPhone = useMediaQuery(phoneCallQuery, false, { getInitialValueInEffect: false }) ?? false;
  const containerRef = useRef<HTMLDivElement>(null);
  const { isMuted, isCameraOff } = media;
  const [screenTrack, setScreenTrack] = useState<MediaStreamTrack | null>(null);
  const [isChatOpen, setIsChatOpen] = useState(false);
  const [isPanelOpen, setIsPanelOpen] = useState(false);
  const [sideTab, setSideTab] = useState<'chat' | 'panel'>('chat');
  /** The panel mounts when first opened, then stays mounted (its editors keep their state). */
  const [hasOpenedPanel, setHasOpenedPanel] = useState(false);
  const [isEnding, setIsEnding] = useState(false);
  const [isLeaving, setIsLeaving] = useState(false);
  const [isInviting, setIsInviting] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const endVisit = useEndVisit(state.appointmentId);
  const admit = useAdmit();
  const { sample, level } = useCallQuality(peers.mesh);
  const indicator = indicatorOf(sample);
  const { stream } = media;
  const { sendMedia } = session;

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);

  // On a larger screen the call takes the height left below what sits above it (header, notices,
  // title), so the video and the controls fit the window without scrolling.
  useLayoutEffect(() => {
    const element = containerRef.current;
    if (!element || isPhone) {
      return;
    }
    const update = () => {
      const top = element.getBoundingClientRect().top + window.scrollY;
      element.style.setProperty('--call-top', `${Math.round(top)}px`);
    };
    update();
    window.addEventListener('resize', update);
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(update) : null;
    observer?.observe(document.body);
    return () => {
      window.removeEventListener('resize', update);
      observer?.disconnect();
    };
  }, [isPhone]);

  // Screen share replaces the camera in every connection; audio-only sends no video at all.
  const mesh = peers.mesh;
  useEffect(() => {
    if (!mesh) {
      return;
    }
    if (screenTrack) {
      mesh.overrideVideo(screenTrack);
    } else if (level === 'audio_only') {
      mesh.overrideVideo(null);
    } else {
      mesh.overrideVideo(undefined);
    }
  }, [mesh, screenTrack, level, stream]);

  useEffect(() => {
    if (session.inCall) {
      sendMedia({ audio: !isMuted, video: !isCameraOff, screen: screenTrack !== null, quality: level });
    }
  }, [sendMedia, session.inCall, isMuted, isCameraOff, screenTrack, level]);

  const startScreenShare = async () => {
    try {
      const display = await navigator.mediaDevices.getDisplayMedia({ video: true });
      const track = display.getVideoTracks()[0];
      if (!track) {
        return;
      }
      track.addEventListener('ended', () => setScreenTrack(null));
      setScreenTrack(track);
    } catch {
      // The person closed the picker.
    }
  };
  const stopScreenShare = () => {
    screenTrack?.stop();
    setScreenTrack(null);
  };
  const toggleFullScreen = () => {
    if (document.fullscreenElement) {
      void document.exitFullscreen();
    } else {
      void containerRef.current?.requestFullscreen?.().catch(() => undefined);
    }
  };

  const startedAt = state.startedAt ?? state.admittedAt;
  const elapsed = startedAt ? formatElapsed(now - Date.parse(startedAt)) : '00:00';
  const nameOf = (key: string): { name: string; role: VisitParticipant['role'] | null } => {
    const known = session.participants.get(key);
    if (known) {
      return { name: known.name, role: known.role };
    }
    if (key === `user:${state.doctor.id}`) {
      return { name: state.doctor.name, role: 'doctor' };
    }
    if (key === `user:${state.patient.id}`) {
      return { name: state.patient.name, role: 'patient' };
    }
    return { name: t('visit.call.guest'), role: null };
  };
  const tiles = peers.peers.slice(0, 3);
  const chatProps = {
    appointmentId: state.appointmentId,
    selfKey: state.self.key,
    chat: session.chat,
    typing: session.typing,
    canWrite: true,
    canShareFiles: state.canShareFiles,
    onSend: session.sendChat,
    onTyping: session.setTyping,
    onFileShared: (message: ChatMessage) => session.addMessages([message]),
  };
  const unread = session.chat.messages.length;

  return (
    <div
      ref={containerRef}
      className={clsx(classes.call, isPhone && classes.callNoChat, isPhone && classes.callPhone)}
      data-testid="visit-call"
      data-quality={level}
      data-side={sidePanel && !isPhone ? sideTab : undefined}
    >
      <div className={classes.bar}>
        <Group gap="xs">
          <Badge
            color="gray"
            variant="light"
            leftSection={<IconClockHour4 size={14} aria-hidden />}
            className={classes.timer}
            data-testid="visit-call-timer"
          >
            <VisuallyHidden>{t('visit.call.timer')} </VisuallyHidden>
            {elapsed}
          </Badge>
          <Tooltip
            label={
              sample
                ? t('visit.call.qualityDetail', {
                    rtt: sample.rttMs === null ? '—' : Math.round(sample.rttMs),
                    loss: sample.packetLoss === null ? '—' : (sample.packetLoss * 100).toFixed(1),
                    kbps: sample.outgoingKbps === null ? '—' : Math.round(sample.outgoingKbps),
                  })
                : t('visit.call.quality.unknown')
            }
          >
            <Badge
              variant="light"
              color={{ good: 'teal', fair: 'yellow', poor: 'red', unknown: 'gray' }[indicator]}
              data-testid="visit-call-quality"
              data-indicator={indicator}
            >
              {t(`visit.call.quality.${indicator}`)}
            </Badge>
          </Tooltip>
          {level !== 'high' ? (
            <Badge variant="light" color="orange" data-testid="visit-call-level">
              {t(`visit.call.level.${level}`)}
            </Badge>
          ) : null}
          {!session.joined ? (
            <Badge variant="light" color="orange" data-testid="visit-call-reconnecting">
              {t('visit.call.reconnecting')}
            </Badge>
          ) : null}
        </Group>
        {state.canHost && waiting.length > 0 ? (
          <Group gap="xs" data-testid="visit-call-waiting">
            {waiting.map((person) => (
              <Button
                key={person.key ?? 'patient'}
                size="xs"
                variant="light"
                loading={admit.isPending}
                onClick={() =>
                  admit.mutate({ appointmentId: state.appointmentId, participantKey: person.key })
                }
                data-testid="visit-call-admit"
              >
                {t('visit.call.admitName', { name: person.name })}
              </Button>
            ))}
          </Group>
        ) : null}
      </div>

      <div className={classes.stage} data-count={Math.max(1, tiles.length)} data-testid="visit-stage">
        {tiles.length === 0 ? (
          <div className={classes.tile}>
            <div className={classes.tileEmpty} data-testid="visit-call-alone">
              <Text c="gray.3">{state.canHost ? t('visit.call.aloneHost') : t('visit.call.alone')}</Text>
            </div>
          </div>
        ) : (
          tiles.map((peer) => {
            const who = nameOf(peer.key);
            const remote = session.media.get(peer.key);
            return (
              <VideoTile
                key={peer.key}
                stream={peer.stream}
                participantKey={peer.key}
                label={who.role ? `${who.name} · ${t(`visit.roles.${who.role}`)}` : who.name}
                isMuted={remote ? !remote.audio : false}
                isCameraOff={remote ? !remote.video && !remote.screen : false}
                isConnecting={peer.stream === null}
                placeholder={
                  peer.stream === null
                    ? t('visit.call.connecting')
                    : remote?.quality === 'audio_only'
                      ? t('visit.call.audioOnly')
                      : t('visit.call.cameraOff')
                }
                testId="visit-remote"
              />
            );
          })
        )}
        <VideoTile
          stream={screenTrack ? new MediaStream([screenTrack]) : media.stream}
          label={t('visit.call.you')}
          isSelf={!screenTrack}
          isMuted={isMuted}
          isCameraOff={isCameraOff && !screenTrack}
          placeholder={t('visit.call.cameraOff')}
          className={classes.self}
          testId="visit-self"
        />
      </div>

      <div className={classes.controls} data-testid="visit-controls">
        <ControlButton
          label={isMuted ? t('visit.call.unmute') : t('visit.call.mute')}
          active={isMuted}
          onClick={() => media.setMuted(!isMuted)}
          testId="visit-mute"
          icon={isMuted ? <IconMicrophoneOff size={20} /> : <IconMicrophone size={20} />}
        />
        <ControlButton
          label={isCameraOff ? t('visit.call.cameraOn') : t('visit.call.cameraOffAction')}
          active={isCameraOff}
          onClick={() => media.setCameraOff(!isCameraOff)}
          testId="visit-camera"
          icon={isCameraOff ? <IconVideoOff size={20} /> : <IconCamera size={20} />}
        />
        {media.cameras.length > 1 ? (
          <ControlButton
            label={t('visit.call.switchCamera')}
            onClick={media.switchCamera}
            testId="visit-switch-camera"
            icon={<IconCameraRotate size={20} />}
          />
        ) : null}
        {!isPhone && typeof navigator.mediaDevices?.getDisplayMedia === 'function' ? (
          <ControlButton
            label={screenTrack ? t('visit.call.stopShare') : t('visit.call.share')}
            active={screenTrack !== null}
            onClick={() => (screenTrack ? stopScreenShare() : void startScreenShare())}
            testId="visit-share"
            icon={screenTrack ? <IconScreenShareOff size={20} /> : <IconScreenShare size={20} />}
          />
        ) : null}
        {!isPhone ? (
          <ControlButton
            label={t('visit.call.fullScreen')}
            onClick={toggleFullScreen}
            testId="visit-fullscreen"
            icon={<IconMaximize size={20} />}
          />
        ) : null}
        {isPhone ? (
          <Indicator disabled={unread === 0} label={unread} size={16}>
            <ControlButton
              label={t('visit.chat.title')}
              onClick={() => setIsChatOpen(true)}
              testId="visit-chat-open"
              icon={<IconMessage size={20} />}
            />
          </Indicator>
        ) : null}
        {isPhone && sidePanel ? (
          <ControlButton
            label={sidePanel.label}
            onClick={() => setIsPanelOpen(true)}
            testId="visit-panel-open"
            icon={<IconNotes size={20} />}
          />
        ) : null}
        {isPhone && (state.canHost || state.canInvite) ? (
          <Menu position="top" withinPortal>
            <Menu.Target>
              <ActionIcon
                size={44}
                radius="xl"
                variant="default"
                aria-label={t('visit.call.more')}
                data-testid="visit-more"
              >
                <IconDots size={20} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {state.canHost ? (
                <Menu.Item
                  component="a"
                  href={`/admin/patients/${encodeURIComponent(state.patient.id)}`}
                  target="_blank"
                  rel="noopener"
                  leftSection={<IconFileText size={18} />}
                  data-testid="visit-open-chart"
                >
                  {t('records.openChart')}
                </Menu.Item>
              ) : null}
              {state.canHost ? (
                <Menu.Item
                  component="a"
                  href={`/admin/patients/${encodeURIComponent(state.patient.id)}/prescriptions/new?appointmentId=${encodeURIComponent(state.appointmentId)}`}
                  target="_blank"
                  rel="noopener"
                  leftSection={<IconPrescription size={18} />}
                  data-testid="visit-prescribe"
                >
                  {t('prescriptions.visitButton')}
                </Menu.Item>
              ) : null}
              {state.canInvite ? (
                <Menu.Item
                  leftSection={<IconUserPlus size={18} />}
                  onClick={() => setIsInviting(true)}
                  data-testid="visit-invite"
                >
                  {t('visit.invite.open')}
                </Menu.Item>
              ) : null}
            </Menu.Dropdown>
          </Menu>
        ) : null}
        {!isPhone && state.canHost ? (
          <Button
            component="a"
            href={`/admin/patients/${encodeURIComponent(state.patient.id)}`}
            target="_blank"
            rel="noopener"
            variant="white"
            leftSection={<IconFileText size={18} />}
            data-testid="visit-open-chart"
          >
            {t('records.openChart')}
          </Button>
        ) : null}
        {!isPhone && state.canInvite ? (
          <ControlButton
            label={t('visit.invite.open')}
            onClick={() => setIsInviting(true)}
            testId="visit-invite"
            icon={<IconUserPlus size={20} />}
          />
        ) : null}
        {!isPhone && state.canHost ? (
          <Button
            component="a"
            href={`/admin/patients/${encodeURIComponent(state.patient.id)}/prescriptions/new?appointmentId=${encodeURIComponent(state.appointmentId)}`}
            target="_blank"
            rel="noopener"
            variant="white"
            leftSection={<IconPrescription size={18} />}
            data-testid="visit-prescribe"
          >
            {t('prescriptions.visitButton')}
          </Button>
        ) : null}
        {state.canHost || onLeave ? (
          <HangUpButton
            label={state.canHost ? t('visit.call.end') : t('visit.call.leave')}
            isCompact={isPhone}
            onClick={() => (state.canHost ? setIsEnding(true) : setIsLeaving(true))}
            testId={state.canHost ? 'visit-end' : 'visit-leave'}
          />
        ) : null}
      </div>

      {isPhone ? (
        <Drawer
          opened={isChatOpen}
          onClose={() => setIsChatOpen(false)}
          position="bottom"
          size="85%"
          title={t('visit.chat.title')}
          styles={{
            body: { height: 'calc(100% - 60px)', display: 'flex', flexDirection: 'column', padding: 0 },
          }}
        >
          <ChatPanel {...chatProps} className={classes.chatDrawer} showTitle={false} />
        </Drawer>
      ) : sidePanel ? (
        <Tabs
          value={sideTab}
          onChange={(value) => {
            setSideTab(value === 'panel' ? 'panel' : 'chat');
            if (value === 'panel') {
              setHasOpenedPanel(true);
            }
          }}
          className={classes.side}
          keepMounted
          data-testid="visit-side-tabs"
        >
          <Tabs.List grow>
            <Tabs.Tab value="chat" leftSection={<IconMessage size={16} />} data-testid="visit-side-chat">
              {t('visit.chat.title')}
            </Tabs.Tab>
            <Tabs.Tab value="panel" leftSection={<IconNotes size={16} />} data-testid="visit-side-panel">
              {sidePanel.label}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="chat" className={classes.sideBody}>
            <ChatPanel {...chatProps} className={classes.chatInTabs} showTitle={false} />
          </Tabs.Panel>
          <Tabs.Panel value="panel" className={classes.sideBody}>
            {hasOpenedPanel ? sidePanel.content : null}
          </Tabs.Panel>
        </Tabs>
      ) : (
        <ChatPanel {...chatProps} />
      )}
      {isPhone && sidePanel ? (
        <Drawer
          opened={isPanelOpen}
          onClose={() => setIsPanelOpen(false)}
          position="bottom"
          size="92%"
          title={sidePanel.label}
          styles={{ body: { padding: 0 } }}
        >
          {sidePanel.content}
        </Drawer>
      ) : null}

      {state.canHost ? (
        <ConfirmDialog
          opened={isEnding}
          title={t('visit.call.endTitle')}
          confirmLabel={t('visit.call.end')}
          isDestructive
          isPending={endVisit.isPending}
          error={endVisit.isError ? errorText(endVisit.error) : undefined}
          onConfirm={() => endVisit.mutate(undefined, { onSuccess: () => setIsEnding(false) })}
          onCancel={() => setIsEnding(false)}
          testId="visit-end-dialog"
        >
          {t('visit.call.endBody')}
        </ConfirmDialog>
      ) : null}
      {!state.canHost && onLeave ? (
        <ConfirmDialog
          opened={isLeaving}
          title={t('visit.call.leaveTitle')}
          confirmLabel={t('visit.call.leave')}
          isDestructive
          onConfirm={() => {
            setIsLeaving(false);
            onLeave();
          }}
          onCancel={() => setIsLeaving(false)}
          testId="visit-leave-dialog"
        >
          {t('visit.call.leaveBody')}
        </ConfirmDialog>
      ) : null}
      {state.canInvite ? (
        <InviteGuestModal
          appointmentId={state.appointmentId}
          opened={isInviting}
          onClose={() => setIsInviting(false)}
        />
      ) : null}
    </div>
  );
}

function ControlButton({
  label,
  icon,
  onClick,
  active = false,
  testId,
}: {
  label: string;
  icon: React.ReactNode;
  onClick: () => void;
  active?: boolean;
  testId: string;
}) {
  return (
    <Tooltip label={label}>
      <ActionIcon
        size={44}
        radius="xl"
        variant={active ? 'filled' : 'default'}
        color={active ? 'red' : undefined}
        aria-label={label}
        aria-pressed={active}
        onClick={onClick}
        data-testid={testId}
      >
        {icon}
      </ActionIcon>
    </Tooltip>
  );
}

/** The red hang-up: labelled on a desktop, a large round icon (with its name for assistive tech) on a phone. */
function HangUpButton({
  label,
  isCompact,
  onClick,
  testId,
}: {
  label: string;
  isCompact: boolean;
  onClick: () => void;
  testId: string;
}) {
  if (isCompact) {
    return (
      <Tooltip label={label}>
        <ActionIcon
          size={52}
          radius="xl"
          color="red"
          variant="filled"
          aria-label={label}
          onClick={onClick}
          data-testid={testId}
        >
          <IconPhoneOff size={24} />
        </ActionIcon>
      </Tooltip>
    );
  }
  return (
    <Button color="red" leftSection={<IconPhoneOff size={18} />} onClick={onClick} data-testid={testId}>
      {label}
    </Button>
  );
}
