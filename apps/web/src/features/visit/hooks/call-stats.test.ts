import { describe, expect, it } from 'vitest';
import { isRelayedReport, sampleFromReport, worstSample } from './call-stats';

const report = (entries: Record<string, unknown>[]) =>
  new Map(entries.map((entry, index) => [String(index), entry])) as unknown as RTCStatsReport;

describe('call statistics', () => {
  it('reads RTT, loss since the last reading and the outgoing bitrate', () => {
    const first = sampleFromReport(
      report([
        { type: 'candidate-pair', nominated: true, state: 'succeeded', currentRoundTripTime: 0.05 },
        { type: 'candidate-pair', nominated: false, state: 'succeeded', currentRoundTripTime: 2 },
        { type: 'outbound-rtp', bytesSent: 100_000 },
        { type: 'remote-inbound-rtp', packetsLost: 10, packetsReceived: 990 },
      ]),
      null,
      1_000,
    );
    expect(first.sample).toEqual({ rttMs: 50, packetLoss: null, outgoingKbps: null });
    const second = sampleFromReport(
      report([
        { type: 'candidate-pair', nominated: true, state: 'succeeded', currentRoundTripTime: 0.2 },
        { type: 'outbound-rtp', bytesSent: 350_000 },
        { type: 'remote-inbound-rtp', packetsLost: 30, packetsReceived: 1_170 },
      ]),
      first.counters,
      3_000,
    );
    expect(second.sample.rttMs).toBe(200);
    expect(second.sample.packetLoss).toBeCloseTo(20 / 200);
    expect(second.sample.outgoingKbps).toBe(1_000);
  });

  it('takes the weakest connection', () => {
    expect(worstSample([])).toBeNull();
    expect(
      worstSample([
        { rttMs: 40, packetLoss: 0.01, outgoingKbps: 800 },
        { rttMs: 300, packetLoss: null, outgoingKbps: 700 },
      ]),
    ).toEqual({ rttMs: 300, packetLoss: 0.01, outgoingKbps: 1_500 });
  });
});

describe('relay detection', () => {
  const withIds = (entries: Record<string, unknown>[]) =>
    new Map(entries.map((entry) => [String(entry.id), entry])) as unknown as RTCStatsReport;

  it('says relayed when the selected pair has a relay candidate on either end', () => {
    const candidates = [
      { id: 'L1', type: 'local-candidate', candidateType: 'host' },
      { id: 'L2', type: 'local-candidate', candidateType: 'relay' },
      { id: 'R1', type: 'remote-candidate', candidateType: 'srflx' },
    ];
    expect(
      isRelayedReport(
        withIds([
          ...candidates,
          { id: 'T', type: 'transport', selectedCandidatePairId: 'P2' },
          { id: 'P1', type: 'candidate-pair', localCandidateId: 'L1', remoteCandidateId: 'R1' },
          { id: 'P2', type: 'candidate-pair', localCandidateId: 'L2', remoteCandidateId: 'R1' },
        ]),
      ),
    ).toBe(true);
    expect(
      isRelayedReport(
        withIds([
          ...candidates,
          {
            id: 'P1',
            type: 'candidate-pair',
            nominated: true,
            state: 'succeeded',
            localCandidateId: 'L1',
            remoteCandidateId: 'R1',
          },
        ]),
      ),
    ).toBe(false);
  });

  it('knows nothing before a pair is selected', () => {
    expect(
      isRelayedReport(withIds([{ id: 'L1', type: 'local-candidate', candidateType: 'relay' }])),
    ).toBeNull();
  });
});
