import type { ConnectionReading } from '@telemedicina/shared/visits';
import { useEffect, useRef, useState } from 'react';
import {
  indicatorOf,
  initialQualityState,
  isConnectionLost,
  nextQuality,
  shouldReportReading,
  type ConnectionIndicator,
  type QualityLevel,
  type QualitySample,
} from '../quality-policy';
import { isRelayedReport, sampleFromReport, worstSample, type StatsCounters } from './call-stats';
import type { PeerMesh } from './peer-mesh';

export interface CallQuality {
  sample: QualitySample | null;
  level: QualityLevel;
  /** What this page shows about its own connection. */
  indicator: ConnectionIndicator;
  /** What this page tells the others (and the visit's record): changes every few seconds at most. */
  reading: ConnectionReading | null;
}

/**
 * Reads every connection's statistics each 2 s, feeds the weakest link to the step-down policy
 * and applies its level to the senders (lower bitrate and resolution, then no video, then no
 * sound: the chat only). A connection that is down makes the indicator "lost" (the policy waits:
 * an outage is not a weak link). `isOnline` false (this page's link to the server is down) counts
 * as lost too.
 */
export function useCallQuality(mesh: PeerMesh | null, isOnline = true): CallQuality {
  const [sample, setSample] = useState<QualitySample | null>(null);
  const [level, setLevel] = useState<QualityLevel>('high');
  const [hasLostPeer, setHasLostPeer] = useState(false);
  const [reading, setReading] = useState<ConnectionReading | null>(null);
  const policy = useRef(initialQualityState);
  const counters = useRef(new WeakMap<RTCPeerConnection, StatsCounters>());
  const lastReport = useRef<{ indicator: ConnectionIndicator; at: number } | null>(null);
  const indicator = indicatorOf(sample, hasLostPeer || !isOnline);

  useEffect(() => {
    if (!mesh) {
      return;
    }
    let active = true;
    const timer = setInterval(() => {
      void (async () => {
        const now = Date.now();
        const samples: QualitySample[] = [];
        let relayed: boolean | null = null;
        let isLost = false;
        for (const pc of mesh.connections()) {
          if (isConnectionLost(pc)) {
            isLost = true;
          }
          if (pc.connectionState !== 'connected') {
            continue;
          }
          const report = await pc.getStats().catch(() => null);
          if (report === null) {
            continue;
          }
          const result = sampleFromReport(report, counters.current.get(pc) ?? null, now);
          counters.current.set(pc, result.counters);
          samples.push(result.sample);
          const isRelayed = isRelayedReport(report);
          relayed = isRelayed === null ? relayed : relayed === true || isRelayed;
        }
        if (!active) {
          return;
        }
        const worst = worstSample(samples);
        setSample(worst);
        setHasLostPeer(isLost);
        const shown = indicatorOf(worst, isLost);
        if (worst !== null || isLost) {
          if (shouldReportReading(lastReport.current, shown, now)) {
            lastReport.current = { indicator: shown, at: now };
            const rtt = worst?.rttMs ?? null;
            setReading({
              indicator: shown,
              rttMs: rtt === null ? null : Math.min(60_000, Math.round(rtt)),
              packetLoss: worst?.packetLoss ?? null,
              relayed,
            });
          }
        }
        if (worst === null) {
          return;
        }
        const next = nextQuality(policy.current, worst, now);
        if (next.level !== policy.current.level) {
          await mesh.applyVideoLevel(next.level);
          setLevel(next.level);
        }
        policy.current = next;
      })();
    }, 2_000);
    return () => {
      active = false;
      clearInterval(timer);
    };
  }, [mesh]);

  return { sample, level, indicator, reading };
}
