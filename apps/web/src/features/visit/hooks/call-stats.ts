import type { QualitySample } from '../quality-policy';

/** Counters kept between two getStats readings of one connection. */
export interface StatsCounters {
  at: number;
  bytesSent: number;
  packetsLost: number;
  packetsReceived: number;
}

/**
 * One connection's sample from its getStats report: RTT of the selected candidate pair, loss the
 * other side reports about what we send (remote-inbound-rtp, since the last reading) and the
 * outgoing bitrate.
 */
export function sampleFromReport(
  report: RTCStatsReport,
  previous: StatsCounters | null,
  now: number,
): { sample: QualitySample; counters: StatsCounters } {
  let rttMs: number | null = null;
  let bytesSent = 0;
  let packetsLost = 0;
  let packetsReceived = 0;
  report.forEach((entry: Record<string, unknown>) => {
    if (entry.type === 'candidate-pair' && (entry.nominated === true || entry.selected === true)) {
      if (typeof entry.currentRoundTripTime === 'number' && entry.state === 'succeeded') {
        rttMs = Math.max(rttMs ?? 0, entry.currentRoundTripTime * 1000);
      }
    }
    if (entry.type === 'outbound-rtp' && typeof entry.bytesSent === 'number') {
      bytesSent += entry.bytesSent;
    }
    if (entry.type === 'remote-inbound-rtp') {
      packetsLost += typeof entry.packetsLost === 'number' ? Math.max(0, entry.packetsLost) : 0;
      if (typeof entry.packetsReceived === 'number') {
        packetsReceived += entry.packetsReceived;
      }
    }
  });
  const counters: StatsCounters = { at: now, bytesSent, packetsLost, packetsReceived };
  if (previous === null || now <= previous.at) {
    return { sample: { rttMs, packetLoss: null, outgoingKbps: null }, counters };
  }
  const lost = Math.max(0, packetsLost - previous.packetsLost);
  const received = Math.max(0, packetsReceived - previous.packetsReceived);
  const total = lost + received;
  return {
    sample: {
      rttMs,
      packetLoss: total > 0 ? lost / total : null,
      outgoingKbps: Math.max(0, ((bytesSent - previous.bytesSent) * 8) / (now - previous.at)),
    },
    counters,
  };
}

/** The worst of several connections' samples (the indicator and the policy look at the weakest link). */
export function worstSample(samples: readonly QualitySample[]): QualitySample | null {
  if (samples.length === 0) {
    return null;
  }
  const pick = (values: (number | null)[], choose: (a: number, b: number) => number) => {
    const known = values.filter((value): value is number => value !== null);
    return known.length === 0 ? null : known.reduce((a, b) => choose(a, b));
  };
  return {
    rttMs: pick(
      samples.map((sample) => sample.rttMs),
      Math.max,
    ),
    packetLoss: pick(
      samples.map((sample) => sample.packetLoss),
      Math.max,
    ),
    outgoingKbps: pick(
      samples.map((sample) => sample.outgoingKbps),
      (a, b) => a + b,
    ),
  };
}

/**
 * Whether the connection's media goes through a TURN relay: the selected candidate pair (the
 * transport's, else the nominated one that succeeded) has a `relay` candidate on either end. Null
 * when no pair is selected yet.
 */
export function isRelayedReport(report: RTCStatsReport): boolean | null {
  const byId = new Map<string, Record<string, unknown>>();
  let selectedId: string | null = null;
  report.forEach((entry: Record<string, unknown>) => {
    if (typeof entry.id === 'string') {
      byId.set(entry.id, entry);
    }
    if (entry.type === 'transport' && typeof entry.selectedCandidatePairId === 'string') {
      selectedId = entry.selectedCandidatePairId;
    }
  });
  let pair: Record<string, unknown> | undefined = selectedId === null ? undefined : byId.get(selectedId);
  if (pair === undefined) {
    pair = [...byId.values()].find(
      (entry) => entry.type === 'candidate-pair' && entry.nominated === true && entry.state === 'succeeded',
    );
  }
  if (pair === undefined) {
    return null;
  }
  const typeOf = (id: unknown) => (typeof id === 'string' ? byId.get(id)?.candidateType : undefined);
  return typeOf(pair.localCandidateId) === 'relay' || typeOf(pair.remoteCandidateId) === 'relay';
}
