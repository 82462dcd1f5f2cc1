import { useEffect, useRef, useState } from 'react';
import { initialQualityState, nextQuality, type QualityLevel, type QualitySample } from '../quality-policy';
import { sampleFromReport, worstSample, type StatsCounters } from './call-stats';
import type { PeerMesh } from './peer-mesh';

/**
 * Reads every connection's statistics each 2 s, feeds the weakest link to the step-down policy
 * and applies its level to the video senders (lower bitrate and resolution, then no video).
 */
export function useCallQuality(mesh: PeerMesh | null): { sample: QualitySample | null; level: QualityLevel } {
  const [sample, setSample] = useState<QualitySample | null>(null);
  const [level, setLevel] = useState<QualityLevel>('high');
  const policy = useRef(initialQualityState);
  const counters = useRef(new WeakMap<RTCPeerConnection, StatsCounters>());

  useEffect(() => {
    if (!mesh) {
      return;
    }
    let active = true;
    const timer = setInterval(() => {
      void (async () => {
        const now = Date.now();
        const samples: QualitySample[] = [];
        for (const pc of mesh.connections()) {
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
        }
        if (!active) {
          return;
        }
        const worst = worstSample(samples);
        setSample(worst);
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

  return { sample, level };
}
