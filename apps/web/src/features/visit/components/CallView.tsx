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
import { Drawer, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMessage, IconNotes } from '@tabler/icons-react';
import type { ChatMessage, VisitParticipant, VisitState } from '@telemedicina/shared/visits';
import clsx from 'clsx';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/modal/ConfirmDialog';
import { useApiErrorText } from '../../../lib/error-text';
import { useEndVisit } from '../api/visit-actions';
import { useCallQuality } from '../hooks/use-call-quality';
import { useInterruptedPeers } from '../hooks/use-interrupted-peers';
import { useNetworkRecovery } from '../hooks/use-network-recovery';
import type { LocalMedia } from '../hooks/use-local-media';
import type { PeerMeshHandle } from '../hooks/use-peer-mesh';
import type { VisitSession } from '../hooks/use-visit-session';
import { CallControls, type CallSidePanel } from './CallControls';
import { CallStatusBar, type WaitingPerson } from './CallStatusBar';
import { ChatPanel } from './ChatPanel';
import { ConnectionBadge } from './ConnectionBadge';
import { StepDownNotice } from './StepDownNotice';
import { InviteGuestModal } from './InviteGuestModal';
import { VideoTile } from './VideoTile';
import classes from './Visit.module.css';

export type { CallSidePanel };

export interface CallViewProps {
  state: VisitState;
  session: VisitSession;
  media: LocalMedia;
  peers: PeerMeshHandle;
  /** For the host: who waits to be admitted to this visit (patient and guests). */
  waiting: readonly WaitingPerson[];
  /** Beside the chat (the doctor's note), when the page composes one. */
  sidePanel?: CallSidePanel | null;
  /** Hang up for a participant who does not host (patient, guest): leave the call, the visit stays open. */
  onLeave?: () => void;
}

/** Where the call fills the screen with the controls at the thumb: a phone upright or on its side. */
export const phoneCallQuery = '(max-width: 900px), (max-height: 500px)';

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
  const endVisit = useEndVisit(state.appointmentId);
  // In the call on the server (the real-time link is up and the join after it went through).
  const isOnline = session.joined;
  const { sample, level, indicator, reading } = useCallQuality(peers.mesh, isOnline);
  useNetworkRecovery(peers.mesh);
  const interrupted = useInterruptedPeers(peers.mesh);
  const { stream } = media;
  const [wasConnected] = useState(() => new Set<string>());
  const { sendMedia } = session;

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
    } else if (level === 'audio_only' || level === 'chat_only') {
      mesh.overrideVideo(null);
    } else {
      mesh.overrideVideo(undefined);
    }
    // The chat-only level sends no sound either.
    mesh.setAudioSending(level !== 'chat_only');
  }, [mesh, screenTrack, level, stream]);

  useEffect(() => {
    if (session.inCall) {
      sendMedia({
        audio: !isMuted,
        video: !isCameraOff,
        screen: screenTrack !== null,
        quality: level,
        ...(reading === null ? {} : { reading }),
      });
    }
  }, [sendMedia, session.inCall, isMuted, isCameraOff, screenTrack, level, reading]);

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
  // Who has been connected in this call (a connection made again afterwards is a reconnection).
  for (const peer of peers.peers) {
    if (peer.connectionState === 'connected') {
      wasConnected.add(peer.key);
    }
  }
  const steppedDown = tiles.flatMap((peer) => {
    const remoteLevel = session.media.get(peer.key)?.quality ?? 'high';
    return remoteLevel === 'audio_only' || remoteLevel === 'chat_only'
      ? [{ key: peer.key, name: nameOf(peer.key).name, level: remoteLevel }]
      : [];
  });
  /**
   * Over a remote picture once it has been connected: this page is offline, they dropped, their
   * connection is down or being made again (an ICE restart, a new connection after they rejoined),
   * or it has received nothing for a while (a cut network the browser was not told of).
   */
  const reconnectingOverlay = (key: string, name: string, state: RTCPeerConnectionState) => {
    if (!wasConnected.has(key)) {
      return null;
    }
    if (!isOnline) {
      return { title: t('visit.call.reconnecting'), detail: t('visit.call.reconnectingSelf') };
    }
    return session.reconnecting.has(key) || state !== 'connected' || interrupted.has(key)
      ? { title: t('visit.call.reconnecting'), detail: t('visit.call.reconnectingPeer', { name }) }
      : null;
  };
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
      <CallStatusBar
        state={state}
        sample={sample}
        indicator={indicator}
        level={level}
        isJoined={session.joined}
        waiting={waiting}
        notice={
          level === 'audio_only' || level === 'chat_only' || steppedDown.length > 0 ? (
            <StepDownNotice
              level={level}
              others={steppedDown}
              onOpenChat={isPhone ? () => setIsChatOpen(true) : undefined}
            />
          ) : null
        }
      />

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
            const theirs = remote?.reading?.indicator ?? 'unknown';
            const overlay = reconnectingOverlay(peer.key, who.name, peer.connectionState);
            return (
              <VideoTile
                key={peer.key}
                stream={peer.stream}
                participantKey={peer.key}
                label={who.role ? `${who.name} · ${t(`visit.roles.${who.role}`)}` : who.name}
                isMuted={remote ? !remote.audio : false}
                // At audio or chat only their video stops: their last frame would stay frozen.
                isCameraOff={
                  remote
                    ? (!remote.video && !remote.screen) ||
                      remote.quality === 'audio_only' ||
                      remote.quality === 'chat_only'
                    : false
                }
                isConnecting={peer.stream === null}
                placeholder={
                  peer.stream === null
                    ? t('visit.call.connecting')
                    : remote?.quality === 'audio_only' || remote?.quality === 'chat_only'
                      ? t(`visit.call.level.${remote.quality}`)
                      : t('visit.call.cameraOff')
                }
                overlay={overlay}
                badge={
                  // Their last reading is stale while the connection is being made again.
                  remote?.reading && overlay === null ? (
                    <ConnectionBadge
                      indicator={theirs}
                      text={t(`visit.call.roleQuality.${who.role ?? 'guest'}`, {
                        quality: t(`visit.call.qualityWord.${theirs}`),
                      })}
                      label={t(`visit.call.theirQuality.${theirs}`, { name: who.name })}
                      testId="visit-remote-quality"
                      isOnVideo
                    />
                  ) : null
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

      <CallControls
        state={state}
        media={media}
        isPhone={isPhone}
        isSharing={screenTrack !== null}
        unread={unread}
        sidePanel={sidePanel}
        canLeave={onLeave !== undefined}
        onToggleShare={() => (screenTrack ? stopScreenShare() : void startScreenShare())}
        onToggleFullScreen={toggleFullScreen}
        onOpenChat={() => setIsChatOpen(true)}
        onOpenPanel={() => setIsPanelOpen(true)}
        onInvite={() => setIsInviting(true)}
        onHangUp={() => (state.canHost ? setIsEnding(true) : setIsLeaving(true))}
      />

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
          // A margin each side: without one the note's tabs and the form cards touched both edges
          // of the phone's screen.
          styles={{ body: { padding: '0 var(--mantine-spacing-sm) var(--mantine-spacing-sm)' } }}
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
