import { ActionIcon, Button, Indicator, Menu, Tooltip } from '@mantine/core';
import {
  IconCamera,
  IconCameraRotate,
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
import type { VisitState } from '@telemedicina/shared/visits';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LocalMedia } from '../hooks/use-local-media';
import classes from './Visit.module.css';

/** A panel another feature puts beside the chat (a tab on a desktop, a drawer on a phone). */
export interface CallSidePanel {
  label: string;
  content: ReactNode;
}

export interface CallControlsProps {
  state: VisitState;
  media: LocalMedia;
  /** A phone: chat, panel and the host's tools open from here; no screen share or full screen. */
  isPhone: boolean;
  isSharing: boolean;
  /** Chat messages so far (the phone's chat button shows the count). */
  unread: number;
  sidePanel: CallSidePanel | null;
  /** A participant who does not host may leave the call. */
  canLeave: boolean;
  onToggleShare: () => void;
  onToggleFullScreen: () => void;
  onOpenChat: () => void;
  onOpenPanel: () => void;
  onInvite: () => void;
  /** End the visit (host) or leave the call (anyone else): both ask first. */
  onHangUp: () => void;
}

/**
 * The call's controls: microphone, camera, camera switch, screen share, full screen, chat, the
 * doctor's tools (chart, prescription), invite, and the hang-up.
 */
export function CallControls({
  state,
  media,
  isPhone,
  isSharing,
  unread,
  sidePanel,
  canLeave,
  onToggleShare,
  onToggleFullScreen,
  onOpenChat,
  onOpenPanel,
  onInvite,
  onHangUp,
}: CallControlsProps) {
  const { t } = useTranslation();
  const { isMuted, isCameraOff } = media;
  return (
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
          label={isSharing ? t('visit.call.stopShare') : t('visit.call.share')}
          active={isSharing}
          onClick={onToggleShare}
          testId="visit-share"
          icon={isSharing ? <IconScreenShareOff size={20} /> : <IconScreenShare size={20} />}
        />
      ) : null}
      {!isPhone ? (
        <ControlButton
          label={t('visit.call.fullScreen')}
          onClick={onToggleFullScreen}
          testId="visit-fullscreen"
          icon={<IconMaximize size={20} />}
        />
      ) : null}
      {isPhone ? (
        <Indicator disabled={unread === 0} label={unread} size={16}>
          <ControlButton
            label={t('visit.chat.title')}
            onClick={onOpenChat}
            testId="visit-chat-open"
            icon={<IconMessage size={20} />}
          />
        </Indicator>
      ) : null}
      {isPhone && sidePanel ? (
        <ControlButton
          label={sidePanel.label}
          onClick={onOpenPanel}
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
                onClick={onInvite}
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
          onClick={onInvite}
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
      {state.canHost || canLeave ? (
        <HangUpButton
          label={state.canHost ? t('visit.call.end') : t('visit.call.leave')}
          isCompact={isPhone}
          onClick={onHangUp}
          testId={state.canHost ? 'visit-end' : 'visit-leave'}
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
  icon: ReactNode;
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
