import { describe, expect, it } from 'vitest';
import { bytesReceivedOf, interruptedAfterMs, isInterrupted, nextReceiving } from './receiving-watch';

const report = (entries: Record<string, unknown>[]) =>
  new Map(entries.map((entry, index) => [String(index), entry])) as unknown as RTCStatsReport;

describe('whether a connection still receives', () => {
  it('reads the bytes received over every transport, else over the selected candidate pairs', () => {
    expect(
      bytesReceivedOf(
        report([
          { type: 'transport', bytesReceived: 1_000 },
          { type: 'transport', bytesReceived: 500 },
          { type: 'candidate-pair', nominated: true, bytesReceived: 9_999 },
          { type: 'inbound-rtp', bytesReceived: 700 },
        ]),
      ),
    ).toBe(1_500);
    expect(
      bytesReceivedOf(
        report([
          { type: 'candidate-pair', nominated: true, bytesReceived: 300 },
          { type: 'candidate-pair', nominated: false, bytesReceived: 50 },
        ]),
      ),
    ).toBe(300);
    expect(bytesReceivedOf(report([{ type: 'inbound-rtp', bytesReceived: 700 }]))).toBeNull();
  });

  it('counts as interrupted once nothing arrived for the limit, and not once bytes move again', () => {
    let state = nextReceiving(undefined, 1_000, 0);
    expect(isInterrupted(state, 0)).toBe(false);
    state = nextReceiving(state, 2_000, 500);
    state = nextReceiving(state, 2_000, 1_000);
    state = nextReceiving(state, 2_000, 500 + interruptedAfterMs - 1);
    expect(isInterrupted(state, 500 + interruptedAfterMs - 1)).toBe(false);
    state = nextReceiving(state, 2_000, 500 + interruptedAfterMs);
    expect(isInterrupted(state, 500 + interruptedAfterMs)).toBe(true);
    state = nextReceiving(state, 2_100, 9_000);
    expect(isInterrupted(state, 9_000)).toBe(false);
  });
});
