import { Badge, Button, Group, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import type { VisitParticipant, VisitState } from '@telemedicina/shared/visits';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdmit } from '../api/visit-actions';
import type { ConnectionIndicator, QualityLevel, QualitySample } from '../quality-policy';
import { ConnectionBadge } from './ConnectionBadge';
import classes from './Visit.module.css';

const pad = (value: number) => String(value).padStart(2, '0');

function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/** Someone waiting to be admitted to the call (the patient has no key). */
export interface WaitingPerson {
  key?: string;
  name: string;
  role: VisitParticipant['role'];
}

export interface CallStatusBarProps {
  state: VisitState;
  sample: QualitySample | null;
  /** This page's own connection: good, weak, lost. */
  indicator: ConnectionIndicator;
  level: QualityLevel;
  /** False while the call's connection is being made again. */
  isJoined: boolean;
  waiting: readonly WaitingPerson[];
  /** A notice across the bar's full width (a connection stepped down). */
  notice?: ReactNode;
}

/**
 * The bar above the video: the call's timer, the connection indicator (with its figures), the
 * quality level when lowered, "reconnecting", and for the host an "admit" button per person waiting.
 */
export function CallStatusBar({
  state,
  sample,
  indicator,
  level,
  isJoined,
  waiting,
  notice = null,
}: CallStatusBarProps) {
  const { t } = useTranslation();
  const admit = useAdmit();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  const startedAt = state.startedAt ?? state.admittedAt;
  const elapsed = startedAt ? formatElapsed(now - Date.parse(startedAt)) : '00:00';

  return (
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
          <span className={classes.qualityWrap}>
            <ConnectionBadge
              indicator={indicator}
              text={t(`visit.call.ownQuality.${indicator}`)}
              testId="visit-call-quality"
            />
          </span>
        </Tooltip>
        {level !== 'high' ? (
          <Badge variant="light" color="orange" data-testid="visit-call-level">
            {t(`visit.call.level.${level}`)}
          </Badge>
        ) : null}
        {!isJoined ? (
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
              onClick={() => admit.mutate({ appointmentId: state.appointmentId, participantKey: person.key })}
              data-testid="visit-call-admit"
            >
              {t('visit.call.admitName', { name: person.name })}
            </Button>
          ))}
        </Group>
      ) : null}
      {notice ? <div className={classes.barNotice}>{notice}</div> : null}
    </div>
  );
}
