import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  claimCallHandoff,
  handOffCall,
  peekCallHandoff,
  prepareCall,
  unclaimedHandoffMs,
  type CallHandoff,
} from './call-handoff';
import type { OutgoingSignal } from './peer-mesh';
import { FakePeerConnection, fakeStream } from './peer-connection-test-fake';

const visit = 'visit-1';
const patientKey = 'user:patient';

function preparedWithOffer(sent: OutgoingSignal[]) {
  const call = prepareCall(visit, 'user:doctor', [{ urls: ['stun:old.example.org'] }], {
    send: (signal) => sent.push(signal),
    createPeerConnection: (configuration) =>
      new FakePeerConnection(configuration) as unknown as RTCPeerConnection,
  });
  call.mesh.setLocalStream(fakeStream());
  call.mesh.prepare([patientKey]);
  return call;
}

function handoffOf(sent: OutgoingSignal[] = []): CallHandoff {
  return {
    appointmentId: visit,
    admit: {},
    media: { stream: fakeStream(), isMuted: false, isCameraOff: true },
    prepared: preparedWithOffer(sent),
  };
}

const isStopped = (handoff: CallHandoff) =>
  handoff.media!.stream.getTracks().every((track) => track.readyState === 'ended');

beforeEach(() => {
  FakePeerConnection.created = [];
  vi.useFakeTimers();
});

afterEach(() => {
  for (const id of [visit, 'visit-2']) {
    const left = peekCallHandoff(id);
    if (left) {
      claimCallHandoff(left);
    }
  }
  vi.useRealTimers();
});

describe('handing a prepared call to the call screen', () => {
  it('keeps it for its own visit until the call screen takes it, camera on and connection open', () => {
    const handoff = handoffOf();
    handOffCall(handoff);
    expect(peekCallHandoff('visit-2')).toBeNull();
    expect(peekCallHandoff(visit)).toBe(handoff);
    // Reading does not take it (a render may run twice).
    expect(peekCallHandoff(visit)).toBe(handoff);
    claimCallHandoff(handoff);
    expect(peekCallHandoff(visit)).toBeNull();
    vi.advanceTimersByTime(unclaimedHandoffMs * 2);
    expect(isStopped(handoff)).toBe(false);
    expect(FakePeerConnection.created[0]!.closed).toBe(false);
  });

  it('lets go of a handoff nobody took: camera off and connections closed after the wait', () => {
    const handoff = handoffOf();
    handOffCall(handoff);
    vi.advanceTimersByTime(unclaimedHandoffMs - 1);
    expect(isStopped(handoff)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(isStopped(handoff)).toBe(true);
    expect(FakePeerConnection.created[0]!.closed).toBe(true);
    expect(peekCallHandoff(visit)).toBeNull();
  });

  it('a newer handoff replaces an older one, which is let go at once', () => {
    const older = handoffOf();
    handOffCall(older);
    const newer = { ...handoffOf(), appointmentId: 'visit-2' };
    handOffCall(newer);
    expect(isStopped(older)).toBe(true);
    expect(peekCallHandoff(visit)).toBeNull();
    expect(peekCallHandoff('visit-2')).toBe(newer);
    expect(isStopped(newer)).toBe(false);
  });
});

describe('a call prepared on the waiting-room page', () => {
  it('sends nothing before admission, then the held offer and candidate right after the restart', async () => {
    const sent: OutgoingSignal[] = [];
    const call = preparedWithOffer(sent);
    const pc = FakePeerConnection.created[0]!;
    await pc.negotiate();
    expect(pc.signalingState).toBe('have-local-offer');
    expect(call.mesh.isPrepared(patientKey)).toBe(true);
    expect(call.mesh.views()).toEqual([]);
    expect(sent).toEqual([]);

    call.mesh.rebuild(patientKey, true);
    expect(FakePeerConnection.created).toHaveLength(1);
    expect(sent.map((signal) => Object.keys(signal).filter((key) => key !== 'to'))).toEqual([
      ['restart'],
      ['description'],
      ['candidate'],
    ]);
    expect(sent.every((signal) => signal.to === patientKey)).toBe(true);
  });

  it('points change notices, ICE servers and connections at the page that takes it over', async () => {
    const sent: OutgoingSignal[] = [];
    const call = preparedWithOffer(sent);
    const prepared = FakePeerConnection.created[0]!;
    expect(prepared.configuration.iceServers).toEqual([{ urls: ['stun:old.example.org'] }]);
    const onChange = vi.fn();
    const onConnection = vi.fn();
    const renewed = [{ urls: ['turn:new.example.org'], username: 'u', credential: 'c' }];
    expect(call.attach({ onChange, iceServers: () => renewed, onConnection })).toBe(call.mesh);
    // The page learns of the connection made before it took over.
    expect(onConnection).toHaveBeenCalledWith(prepared);
    await prepared.negotiate();
    call.mesh.rebuild(patientKey, true);
    expect(onChange).toHaveBeenCalled();
    expect(call.mesh.views().map((view) => view.key)).toEqual([patientKey]);
    // A connection made after the takeover uses the page's servers and is reported to it.
    call.mesh.connect('guest:interpreter');
    const later = FakePeerConnection.created[1]!;
    expect(later.configuration.iceServers).toEqual(renewed);
    expect(onConnection).toHaveBeenLastCalledWith(later);
  });
});
