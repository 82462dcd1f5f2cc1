import type { VisitState, WaitingRoom, WaitingRoomEntry } from '@telemedicina/shared/visits';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { claimCallHandoff, peekCallHandoff } from './call-handoff';
import { FakePeerConnection, fakeStream } from './peer-connection-test-fake';
import { admissionKeysOf, useAdmissionPrewarm } from './use-admission-prewarm';

const socket = vi.hoisted(() => ({ on: vi.fn(), off: vi.fn() }));
const realtime = vi.hoisted(() => ({
  emitWithAck: vi.fn((_event: string, _payload: unknown) => Promise.resolve(null)),
  getRealtimeSocket: vi.fn(() => Promise.resolve(socket)),
}));
vi.mock('../../../lib/realtime', () => realtime);
const actions = vi.hoisted(() => ({ admit: vi.fn((_id: string, _request: unknown) => Promise.resolve({})) }));
vi.mock('../api/visit-actions', () => actions);
vi.mock('../api/visit-state', () => ({
  visitStateQuery: (appointmentId: string) => ({
    queryKey: ['visit', appointmentId],
    queryFn: () =>
      Promise.resolve({
        appointmentId,
        canHost: true,
        self: { key: 'user:doctor', name: 'Dra. Ruiz', role: 'doctor' },
        iceServers: [],
      } as unknown as VisitState),
  }),
}));

const visit = 'visit-1';
const patientKey = 'user:patient-1';

function entry(overrides: Partial<WaitingRoomEntry> = {}): WaitingRoomEntry {
  return {
    appointmentId: visit,
    patient: { id: 'patient-1', name: 'Pablo Pérez' },
    startsAt: '2026-11-27T10:00:00.000Z',
    endsAt: '2026-11-27T10:05:00.000Z',
    status: 'checked_in',
    checkedInAt: '2026-11-27T09:58:00.000Z',
    admittedAt: null,
    online: true,
    deviceCheck: null,
    waitingGuests: [],
    ...overrides,
  };
}

const roomWith = (entries: WaitingRoomEntry[]): WaitingRoom => ({
  doctorId: 'doctor',
  entries,
  runningLateMinutes: null,
});

const streams: MediaStream[] = [];
const getUserMedia = vi.fn(() => {
  const stream = fakeStream();
  streams.push(stream);
  return Promise.resolve(stream);
});
const isLive = (stream: MediaStream) => stream.getTracks().every((track) => track.readyState === 'live');

function render(room: WaitingRoom, preloadCall = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(
    ({ current }: { current: WaitingRoom }) => useAdmissionPrewarm(current, true, preloadCall),
    {
      wrapper,
      initialProps: { current: room },
    },
  );
  return { ...hook, preloadCall };
}

beforeEach(() => {
  FakePeerConnection.created = [];
  streams.length = 0;
  getUserMedia.mockClear();
  realtime.emitWithAck.mockClear();
  actions.admit.mockClear();
  socket.on.mockClear();
  socket.off.mockClear();
  window.localStorage.clear();
  Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
  Object.defineProperty(navigator, 'mediaDevices', {
    value: { getUserMedia, enumerateDevices: () => Promise.resolve([]) },
    configurable: true,
  });
  vi.stubGlobal('RTCPeerConnection', FakePeerConnection);
});

afterEach(() => {
  vi.unstubAllGlobals();
  const left = peekCallHandoff(visit);
  if (left) {
    claimCallHandoff(left);
  }
});

describe('the waiting room made ready for admission', () => {
  it('with nobody waiting asks for no camera and prepares nothing', async () => {
    const { result, preloadCall } = render(roomWith([entry({ status: 'confirmed', checkedInAt: null })]));
    await act(() => Promise.resolve());
    expect(result.current.isOffered).toBe(false);
    expect(getUserMedia).not.toHaveBeenCalled();
    expect(preloadCall).not.toHaveBeenCalled();
    expect(FakePeerConnection.created).toEqual([]);
  });

  it('while someone waits: the camera is on, the call screen fetched, their connection prepared and nothing sent', async () => {
    const { result, preloadCall } = render(roomWith([entry()]));
    await waitFor(() => expect(result.current.preparedCount).toBe(1));
    expect(getUserMedia).toHaveBeenCalledTimes(1);
    expect(preloadCall).toHaveBeenCalled();
    expect(FakePeerConnection.created).toHaveLength(1);
    await FakePeerConnection.created[0]!.negotiate();
    expect(FakePeerConnection.created[0]!.signalingState).toBe('have-local-offer');
    expect(realtime.emitWithAck).not.toHaveBeenCalled();
  });

  it('admitting hands the live camera and the prepared connection to the call screen; leaving the page keeps them', async () => {
    const { result, unmount } = render(
      roomWith([entry(), entry({ appointmentId: 'visit-2', patient: { id: 'p2', name: 'Ana' } })]),
    );
    await waitFor(() => expect(result.current.preparedCount).toBe(2));
    act(() => result.current.handOff(visit));
    const handoff = peekCallHandoff(visit);
    expect(handoff?.admit).toEqual({});
    expect(handoff?.media?.stream).toBe(streams[0]);
    expect(handoff?.prepared?.mesh.isPrepared(patientKey)).toBe(true);
    expect(FakePeerConnection.created).toHaveLength(2);
    // It joins the call and then admits at once, listening for the admitted person meanwhile.
    await waitFor(() => expect(actions.admit).toHaveBeenCalledWith(visit, {}));
    expect(realtime.emitWithAck.mock.calls.map(([event]) => event)).toEqual(['visit.join']);
    expect(socket.on.mock.calls.map((call: unknown[]) => call[0])).toEqual([
      'visit.participantJoined',
      'visit.signal',
    ]);
    unmount();
    expect(isLive(streams[0]!)).toBe(true);
    // The handed connection stays open; the other visit's belonged to the page and is closed.
    expect(FakePeerConnection.created.map((pc) => pc.closed).sort()).toEqual([false, true]);
    expect(handoff?.prepared?.mesh.isPrepared(patientKey)).toBe(true);
    // The call screen takes over: the page stops listening for it.
    claimCallHandoff(handoff!);
    expect(socket.off).toHaveBeenCalledTimes(2);
    expect(getUserMedia).toHaveBeenCalledTimes(1);
  });

  it('turned off: camera off, connections closed, and the choice is kept', async () => {
    const { result } = render(roomWith([entry()]));
    await waitFor(() => expect(result.current.preparedCount).toBe(1));
    act(() => result.current.setOn(false));
    await waitFor(() => expect(isLive(streams[0]!)).toBe(false));
    expect(result.current.media.stream).toBeNull();
    expect(result.current.preparedCount).toBe(0);
    expect(FakePeerConnection.created[0]!.closed).toBe(true);
    expect(window.localStorage.getItem('telemedicina.waitingRoom.preview')).toBe('off');
    const again = render(roomWith([entry()]));
    await act(() => Promise.resolve());
    expect(again.result.current.isOn).toBe(false);
    expect(getUserMedia).toHaveBeenCalledTimes(1);
  });

  it('prepares for the checked-in patient only while their page is open, and for waiting guests', () => {
    const guest = { key: 'guest:g1', name: 'Irene', role: 'interpreter' as const };
    expect(admissionKeysOf(entry())).toEqual([patientKey]);
    expect(admissionKeysOf(entry({ online: false, waitingGuests: [guest] }))).toEqual(['guest:g1']);
    expect(
      admissionKeysOf(
        entry({ status: 'in_progress', admittedAt: '2026-11-27T10:00:00.000Z', waitingGuests: [guest] }),
      ),
    ).toEqual(['guest:g1']);
  });
});
