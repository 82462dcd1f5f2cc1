import { Button, Loader, Text } from '@mantine/core';
import { IconMicrophoneOff, IconVideoOff, IconVolume } from '@tabler/icons-react';
import clsx from 'clsx';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './Visit.module.css';

export interface VideoTileProps {
  stream: MediaStream | null;
  label: string;
  isSelf?: boolean;
  isMuted?: boolean;
  isCameraOff?: boolean;
  /** Shown over an empty tile (connecting, camera off). */
  placeholder?: string;
  isConnecting?: boolean;
  className?: string;
  testId: string;
  participantKey?: string;
  /** Covers the picture (its connection dropped): a title and a line of explanation. */
  overlay?: { title: string; detail: string } | null;
  /** Shown at the top corner (their connection's state). */
  badge?: ReactNode;
}

/** One participant's video with their name and muted/camera-off marks; the own view is mirrored and silent. */
export function VideoTile({
  stream,
  label,
  isSelf = false,
  isMuted = false,
  isCameraOff = false,
  placeholder,
  isConnecting = false,
  className,
  testId,
  participantKey,
  overlay = null,
  badge = null,
}: VideoTileProps) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [isSoundBlocked, setIsSoundBlocked] = useState(false);
  useEffect(() => {
    const video = videoRef.current;
    if (!video || video.srcObject === stream) {
      return;
    }
    video.srcObject = stream;
    if (!stream) {
      return;
    }
    video.play().catch(() => {
      // The browser allows sound only after the person interacted with the page (e.g. right
      // after a reload): play muted so the picture runs, and offer to turn the sound on.
      if (!isSelf) {
        video.muted = true;
        setIsSoundBlocked(true);
        void video.play().catch(() => undefined);
      }
    });
  }, [stream, isSelf]);
  useEffect(() => {
    if (!isSoundBlocked) {
      return;
    }
    const handleGesture = () => {
      const video = videoRef.current;
      if (video) {
        video.muted = false;
        void video.play().then(
          () => setIsSoundBlocked(false),
          () => undefined,
        );
      }
    };
    document.addEventListener('pointerdown', handleGesture);
    document.addEventListener('keydown', handleGesture);
    return () => {
      document.removeEventListener('pointerdown', handleGesture);
      document.removeEventListener('keydown', handleGesture);
    };
  }, [isSoundBlocked]);
  const hasVideo = stream !== null && stream.getVideoTracks().length > 0 && !isCameraOff;
  return (
    <div className={clsx(classes.tile, className)} data-testid={testId} data-key={participantKey}>
      <video
        ref={videoRef}
        autoPlay
        playsInline
        muted={isSelf}
        className={isSelf ? classes.mirrored : classes.remote}
        style={{ visibility: hasVideo ? 'visible' : 'hidden' }}
        data-testid={`${testId}-video`}
      />
      {!hasVideo || isConnecting ? (
        <div className={classes.tileEmpty}>
          {isConnecting ? <Loader color="gray.3" size="sm" /> : <IconVideoOff size={28} aria-hidden />}
          {placeholder ? (
            <Text size="sm" c="gray.3">
              {placeholder}
            </Text>
          ) : null}
        </div>
      ) : null}
      {badge ? <div className={classes.tileBadge}>{badge}</div> : null}
      {overlay ? (
        <div className={classes.tileOverlay} data-testid={`${testId}-reconnecting`} role="status">
          <Loader color="gray.3" size="sm" />
          <Text fw={600}>{overlay.title}</Text>
          <Text size="sm" c="gray.3">
            {overlay.detail}
          </Text>
        </div>
      ) : null}
      {isSoundBlocked ? (
        <Button
          size="xs"
          className={classes.soundButton}
          leftSection={<IconVolume size={16} />}
          data-testid={`${testId}-sound`}
        >
          {t('visit.call.enableSound')}
        </Button>
      ) : null}
      <div className={classes.tileLabel}>
        {isMuted ? <IconMicrophoneOff size={14} aria-hidden /> : null}
        <Text span size="xs" truncate="end" c="white">
          {label}
        </Text>
      </div>
    </div>
  );
}
