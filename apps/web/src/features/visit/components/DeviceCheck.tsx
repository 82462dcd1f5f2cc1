import '@mantine/core/styles/Alert.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import {
  Alert,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconLoader2, IconVolume, IconX } from '@tabler/icons-react';
import { deviceRiskOf, type DeviceCheckResult } from '@telemedicina/shared/visits';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  browserFamilyOf,
  browserSupportOf,
  buildDeviceCheckResult,
  isBrowserSupported,
  type MediaProblem,
} from '../device-check-result';
import { useLocalMedia } from '../hooks/use-local-media';
import { useMicLevel } from '../hooks/use-mic-level';
import { canChooseSpeaker, checkConnectivity, measureRealtimeRtt, playTestTone } from '../hooks/probes';
import { DevicePickers } from './DevicePickers';
import { VideoTile } from './VideoTile';
import classes from './Visit.module.css';

export interface DeviceCheckProps {
  iceServers: RTCIceServer[];
  /** Saves the result (the patient's is stored on the appointment); resolves when done. */
  onSave: (result: DeviceCheckResult) => Promise<void>;
  isSaving?: boolean;
  saveError?: string | null;
  continueLabel: string;
}

type Verdict = 'ok' | 'warning' | 'failed' | 'running';

/**
 * The pre-call check: browser support, camera (live preview) and microphone (level meter) with
 * device choice, a speaker test the person confirms, ICE connectivity against the clinic's
 * servers and the real-time round trip. Problems come with translated guidance.
 */
export function DeviceCheck({
  iceServers,
  onSave,
  isSaving = false,
  saveError,
  continueLabel,
}: DeviceCheckProps) {
  const { t } = useTranslation();
  const media = useLocalMedia();
  const level = useMicLevel(media.stream);
  const support = useMemo(() => browserSupportOf(window), []);
  const [speaker, setSpeaker] = useState<'ok' | 'failed' | 'untested'>('untested');
  const [speakerId, setSpeakerId] = useState<string | null>(null);
  const [isPlaying, setIsPlaying] = useState(false);
  const [hasPlayed, setHasPlayed] = useState(false);
  const [connectivity, setConnectivity] = useState<DeviceCheckResult['connectivity']>('untested');
  const [isCheckingNetwork, setIsCheckingNetwork] = useState(true);
  const [rtt, setRtt] = useState<number | null>(null);
  const iceKey = JSON.stringify(iceServers);

  useEffect(() => {
    let active = true;
    void Promise.all([checkConnectivity(JSON.parse(iceKey) as RTCIceServer[]), measureRealtimeRtt()]).then(
      ([found, measured]) => {
        if (active) {
          setConnectivity(found);
          setRtt(measured);
          setIsCheckingNetwork(false);
        }
      },
    );
    return () => {
      active = false;
    };
  }, [iceKey]);

  const handlePlay = async () => {
    setIsPlaying(true);
    try {
      await playTestTone(speakerId);
    } finally {
      setIsPlaying(false);
      setHasPlayed(true);
    }
  };

  const result = buildDeviceCheckResult({
    support,
    camera: media.isStarting ? null : media.cameraProblem,
    microphone: media.isStarting ? null : media.microphoneProblem,
    speaker,
    connectivity,
    realtimeRttMs: rtt,
    userAgent: navigator.userAgent,
  });
  const risk = deviceRiskOf(result);
  const family = browserFamilyOf(navigator.userAgent);
  const problems = [
    ...new Set([media.cameraProblem, media.microphoneProblem].filter((p): p is MediaProblem => p !== null)),
  ];
  const isReady = !media.isStarting && !isCheckingNetwork;

  const cameraVerdict: Verdict = media.isStarting ? 'running' : media.cameraProblem ? 'failed' : 'ok';
  const micVerdict: Verdict = media.isStarting ? 'running' : media.microphoneProblem ? 'failed' : 'ok';
  const networkVerdict: Verdict = isCheckingNetwork
    ? 'running'
    : connectivity === 'failed'
      ? 'failed'
      : connectivity === 'relay'
        ? 'warning'
        : 'ok';

  return (
    <Stack gap="md" data-testid="device-check">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <Stack gap="sm">
          <div className={classes.preview}>
            <VideoTile
              stream={media.stream}
              label={t('visit.check.preview')}
              isSelf
              isCameraOff={media.cameraProblem !== null}
              placeholder={media.isStarting ? t('visit.check.starting') : t('visit.check.noCamera')}
              isConnecting={media.isStarting}
              testId="device-check-preview"
              className={classes.preview}
            />
          </div>
          <DevicePickers media={media} testIdPrefix="device-check" />
          <div>
            <Text size="sm" fw={500} mb={4} id="mic-level-label">
              {t('visit.check.level')}
            </Text>
            <div
              className={classes.meter}
              role="meter"
              aria-labelledby="mic-level-label"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(level * 100)}
              data-testid="device-check-level"
            >
              <div className={classes.meterFill} style={{ width: `${Math.round(level * 100)}%` }} />
            </div>
            <Text size="xs" c="gray.7" mt={4}>
              {t('visit.check.levelHint')}
            </Text>
          </div>
        </Stack>

        <Stack gap="sm">
          <Paper withBorder radius="md" p="md">
            <Stack gap="xs">
              <Title order={3} size="h5">
                {t('visit.check.results')}
              </Title>
              <ul className={classes.checkList}>
                <CheckRow
                  verdict={isBrowserSupported(support) ? 'ok' : 'failed'}
                  label={t('visit.check.browser')}
                  detail={
                    isBrowserSupported(support) ? (result.browser ?? '') : t('visit.check.browserUnsupported')
                  }
                  testId="device-check-browser"
                />
                <CheckRow
                  verdict={cameraVerdict}
                  label={t('visit.check.camera')}
                  testId="device-check-camera-status"
                />
                <CheckRow
                  verdict={micVerdict}
                  label={t('visit.check.microphone')}
                  testId="device-check-microphone-status"
                />
                <CheckRow
                  verdict={networkVerdict}
                  label={t('visit.check.network')}
                  detail={
                    isCheckingNetwork
                      ? t('visit.check.checking')
                      : t(`visit.check.connectivity.${connectivity}`)
                  }
                  testId="device-check-network"
                />
                <CheckRow
                  verdict={isCheckingNetwork ? 'running' : rtt === null ? 'warning' : 'ok'}
                  label={t('visit.check.realtime')}
                  detail={
                    isCheckingNetwork
                      ? t('visit.check.checking')
                      : rtt === null
                        ? t('visit.check.realtimeUnknown')
                        : t('visit.check.realtimeMs', { ms: Math.round(rtt) })
                  }
                  testId="device-check-realtime"
                />
                <CheckRow
                  verdict={speaker === 'ok' ? 'ok' : speaker === 'failed' ? 'warning' : 'running'}
                  label={t('visit.check.speaker')}
                  detail={t(`visit.check.speakerState.${speaker}`)}
                  testId="device-check-speaker-status"
                />
              </ul>
            </Stack>
          </Paper>
          <Paper withBorder radius="md" p="md">
            <Stack gap="xs">
              <Text fw={600} size="sm">
                {t('visit.check.speakerTest')}
              </Text>
              {canChooseSpeaker() && media.speakers.length > 1 ? (
                <NativeSelect
                  aria-label={t('visit.check.speaker')}
                  data={media.speakers.map((device, index) => ({
                    value: device.deviceId,
                    label: device.label || t('visit.check.deviceN', { n: index + 1 }),
                  }))}
                  value={speakerId ?? ''}
                  onChange={(event) => setSpeakerId(event.currentTarget.value)}
                />
              ) : null}
              <Group gap="xs">
                <Button
                  variant="default"
                  leftSection={<IconVolume size={18} />}
                  onClick={() => void handlePlay()}
                  loading={isPlaying}
                  data-testid="device-check-play"
                >
                  {t('visit.check.play')}
                </Button>
                <Button
                  variant={speaker === 'ok' ? 'filled' : 'light'}
                  color="teal"
                  disabled={!hasPlayed}
                  onClick={() => setSpeaker('ok')}
                  data-testid="device-check-heard"
                >
                  {t('visit.check.heard')}
                </Button>
                <Button
                  variant={speaker === 'failed' ? 'filled' : 'light'}
                  color="orange"
                  disabled={!hasPlayed}
                  onClick={() => setSpeaker('failed')}
                  data-testid="device-check-not-heard"
                >
                  {t('visit.check.notHeard')}
                </Button>
              </Group>
              {speaker === 'failed' ? (
                <Text size="sm" c="orange.9">
                  {t('visit.check.speakerHelp')}
                </Text>
              ) : null}
            </Stack>
          </Paper>
        </Stack>
      </SimpleGrid>

      {!support.secureContext ? <Guidance problem="insecure" family={family} /> : null}
      {problems.map((problem) => (
        <Guidance key={problem} problem={problem} family={family} />
      ))}
      {!isCheckingNetwork && connectivity === 'failed' ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle />}
          data-testid="device-check-network-help"
        >
          {t('visit.check.networkHelp')}
        </Alert>
      ) : null}

      <Group justify="space-between" align="center" gap="sm">
        <Group gap="xs">
          <Text size="sm">{t('visit.check.summary')}</Text>
          {isReady ? (
            <Badge color={riskColor[risk]} variant="light" data-testid="device-check-risk" data-risk={risk}>
              {t(`visit.risk.${risk}`)}
            </Badge>
          ) : (
            <Badge color="gray" variant="light">
              {t('visit.check.checking')}
            </Badge>
          )}
        </Group>
        <Button
          onClick={() => void onSave(result)}
          disabled={!isReady}
          loading={isSaving}
          data-testid="device-check-save"
        >
          {continueLabel}
        </Button>
      </Group>
      {saveError ? (
        <Alert color="red" variant="light" data-testid="device-check-save-error">
          {saveError}
        </Alert>
      ) : null}
    </Stack>
  );
}

export const riskColor = { ok: 'teal', warning: 'orange', blocked: 'red' } as const;

function CheckRow({
  verdict,
  label,
  detail,
  testId,
}: {
  verdict: Verdict;
  label: string;
  detail?: ReactNode;
  testId: string;
}) {
  const icon = {
    ok: <IconCheck size={16} />,
    warning: <IconAlertTriangle size={16} />,
    failed: <IconX size={16} />,
    running: <IconLoader2 size={16} />,
  }[verdict];
  const color = { ok: 'teal', warning: 'orange', failed: 'red', running: 'gray' }[verdict];
  return (
    <li className={classes.checkItem} data-testid={testId} data-verdict={verdict}>
      <ThemeIcon size={24} radius="xl" variant="light" color={color} aria-hidden>
        {icon}
      </ThemeIcon>
      <div>
        <Text size="sm" fw={500}>
          {label}
        </Text>
        {detail ? (
          <Text size="xs" c="gray.7">
            {detail}
          </Text>
        ) : null}
      </div>
    </li>
  );
}

/** What to do about a camera/microphone problem, with the steps for this browser when it was a refusal. */
export function Guidance({ problem, family }: { problem: MediaProblem; family: string }) {
  const { t } = useTranslation();
  return (
    <Alert
      color={problem === 'denied' || problem === 'insecure' ? 'red' : 'orange'}
      variant="light"
      icon={<IconAlertTriangle />}
      title={t(`visit.guidance.${problem}.title`)}
      data-testid={`device-guidance-${problem}`}
    >
      <Stack gap={4}>
        <Text size="sm">{t(`visit.guidance.${problem}.body`)}</Text>
        {problem === 'denied' ? (
          <Text size="sm" fw={500}>
            {t(`visit.guidance.browsers.${family as 'chrome'}`)}
          </Text>
        ) : null}
      </Stack>
    </Alert>
  );
}
