import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconLoader2, IconVideo, IconVideoOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { browserFamilyOf, type MediaProblem } from '../device-check-result';
import type { AdmissionPrewarm } from '../hooks/use-admission-prewarm';
import { useMicLevel } from '../hooks/use-mic-level';
import { DevicePickers } from './DevicePickers';
import { Guidance } from './DeviceCheck';
import { VideoTile } from './VideoTile';
import classes from './AdmissionPreview.module.css';

type PreviewState = 'off' | 'starting' | 'ready' | 'partial' | 'failed';

const badges = {
  ready: { color: 'teal', icon: <IconCheck size={14} /> },
  starting: { color: 'gray', icon: <IconLoader2 size={14} /> },
  partial: { color: 'orange', icon: <IconAlertTriangle size={14} /> },
  failed: { color: 'red', icon: <IconAlertTriangle size={14} /> },
  off: { color: 'gray', icon: <IconVideoOff size={14} /> },
} as const;

/**
 * The host's own camera and microphone on the waiting-room page while someone waits: a small
 * self-view, the microphone's level, the device pickers and whether all is ready; it can be turned
 * off (the call then starts the camera itself). Only the host sees it: nothing is sent to anyone
 * before they are admitted.
 */
export function AdmissionPreview({ prewarm }: { prewarm: AdmissionPrewarm }) {
  const { t } = useTranslation();
  const { media, isOn, setOn, preparedCount } = prewarm;
  const level = useMicLevel(isOn ? media.stream : null);
  const problems = [
    ...new Set([media.cameraProblem, media.microphoneProblem].filter((p): p is MediaProblem => p !== null)),
  ];
  const state: PreviewState = !isOn
    ? 'off'
    : media.isStarting
      ? 'starting'
      : media.stream === null
        ? 'failed'
        : problems.length > 0
          ? 'partial'
          : 'ready';
  const badge = badges[state];

  return (
    <Paper
      component="section"
      withBorder
      radius="md"
      p="md"
      data-testid="admission-preview"
      data-state={state}
      data-prepared={preparedCount}
      aria-labelledby="admission-preview-title"
    >
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h5" id="admission-preview-title">
            {t('visit.room.preview.title')}
          </Title>
          <Badge
            color={badge.color}
            variant="light"
            leftSection={badge.icon}
            data-testid="admission-preview-status"
          >
            {t(`visit.room.preview.${state}`)}
          </Badge>
        </Group>
        {isOn ? (
          <div className={classes.preview}>
            <VideoTile
              stream={media.stream}
              label={t('visit.check.preview')}
              isSelf
              isCameraOff={media.cameraProblem !== null}
              isConnecting={media.isStarting}
              placeholder={media.isStarting ? t('visit.check.starting') : t('visit.check.noCamera')}
              testId="admission-preview-tile"
              className={classes.tile}
            />
            <Stack gap="xs">
              <Text size="sm" c="gray.7">
                {t('visit.room.preview.hint')}
              </Text>
              <div>
                <Text size="xs" fw={500} mb={4} id="admission-preview-level">
                  {t('visit.check.level')}
                </Text>
                <div
                  className={classes.meter}
                  role="meter"
                  aria-labelledby="admission-preview-level"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.round(level * 100)}
                  data-testid="admission-preview-level"
                >
                  <div className={classes.meterFill} style={{ width: `${Math.round(level * 100)}%` }} />
                </div>
              </div>
              <div className={classes.pickers}>
                <DevicePickers media={media} testIdPrefix="admission-preview" size="xs" />
              </div>
              <Group>
                <Button
                  variant="default"
                  size="xs"
                  leftSection={<IconVideoOff size={16} />}
                  onClick={() => setOn(false)}
                  data-testid="admission-preview-toggle"
                >
                  {t('visit.room.preview.turnOff')}
                </Button>
              </Group>
            </Stack>
          </div>
        ) : (
          <Group justify="space-between" gap="sm">
            <Text size="sm" c="gray.7" style={{ flex: '1 1 240px' }}>
              {t('visit.room.preview.hintOff')}
            </Text>
            <Button
              variant="light"
              size="xs"
              leftSection={<IconVideo size={16} />}
              onClick={() => setOn(true)}
              data-testid="admission-preview-toggle"
            >
              {t('visit.room.preview.turnOn')}
            </Button>
          </Group>
        )}
        {isOn
          ? problems.map((problem) => (
              <Guidance key={problem} problem={problem} family={browserFamilyOf(navigator.userAgent)} />
            ))
          : null}
      </Stack>
    </Paper>
  );
}
