import type { VisitState } from '@telemedicina/shared/visits';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '../../../lib/query-keys';
import { renewalDelayMs, useIceServerRenewal } from './use-ice-server-renewal';

const api = vi.hoisted(() => ({
  getVisitState: vi.fn<(id: string, signal?: AbortSignal) => Promise<unknown>>(),
  getGuestVisitState: vi.fn<(signal?: AbortSignal) => Promise<unknown>>(),
}));
vi.mock('../api/visit-state', () => api);

const appointmentId = '0b7f3c1e-5a2d-4c8e-9f10-1234567890ab';

function stateWith(username: string | null, ttlSeconds: number | null): VisitState {
  return {
    appointmentId,
    iceServers: [
      { urls: ['stun:stun.example.org:3478'] },
      ...(username === null ? [] : [{ urls: ['turn:turn.example.org:3478'], username, credential: 'c' }]),
    ],
    iceServersTtlSeconds: ttlSeconds,
  } as VisitState;
}

function setUp(initial: VisitState, isGuest = false) {
  const client = new QueryClient();
  client.setQueryData(queryKeys.visit.state(appointmentId), initial);
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
  const hook = renderHook(({ state }: { state: VisitState }) => useIceServerRenewal(state, isGuest), {
    wrapper,
    initialProps: { state: initial },
  });
  return { client, hook };
}

beforeEach(() => {
  vi.useFakeTimers();
  api.getVisitState.mockReset();
  api.getGuestVisitState.mockReset();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('TURN credential renewal', () => {
  it('renews at 70 % of the lifetime, never sooner than a second', () => {
    expect(renewalDelayMs(3600)).toBe(2_520_000);
    expect(renewalDelayMs(5)).toBe(3_500);
    expect(renewalDelayMs(1)).toBe(1_000);
  });

  it('asks for the state again before the credentials lapse and puts it in the cache', async () => {
    const fresh = stateWith('2000:user-p', 600);
    api.getVisitState.mockResolvedValue(fresh);
    const { client } = setUp(stateWith('1000:user-p', 600));
    await act(() => vi.advanceTimersByTimeAsync(419_000));
    expect(api.getVisitState).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(api.getVisitState).toHaveBeenCalledTimes(1);
    expect(api.getVisitState.mock.calls[0]![0]).toBe(appointmentId);
    expect(client.getQueryData(queryKeys.visit.state(appointmentId))).toBe(fresh);
    expect(api.getGuestVisitState).not.toHaveBeenCalled();
  });

  it('renews a guest through the guest endpoint and tries again after a failure', async () => {
    api.getGuestVisitState.mockRejectedValueOnce(new Error('offline'));
    api.getGuestVisitState.mockResolvedValueOnce(stateWith('2000:guest-g', 10));
    const { client } = setUp(stateWith('1000:guest-g', 10), true);
    await act(() => vi.advanceTimersByTimeAsync(7_000));
    expect(api.getGuestVisitState).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(15_000));
    expect(api.getGuestVisitState).toHaveBeenCalledTimes(2);
    expect(
      client.getQueryData<VisitState>(queryKeys.visit.state(appointmentId))?.iceServers[1]?.username,
    ).toBe('2000:guest-g');
    expect(api.getVisitState).not.toHaveBeenCalled();
  });

  it('starts over when fresh credentials arrive another way (a pushed state), and does nothing without TURN', async () => {
    api.getVisitState.mockResolvedValue(stateWith('3000:user-p', 10));
    const { hook } = setUp(stateWith('1000:user-p', 10));
    await act(() => vi.advanceTimersByTimeAsync(6_000));
    hook.rerender({ state: stateWith('1006:user-p', 10) });
    await act(() => vi.advanceTimersByTimeAsync(6_000));
    expect(api.getVisitState).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(api.getVisitState).toHaveBeenCalledTimes(1);

    hook.rerender({ state: stateWith(null, null) });
    await act(() => vi.advanceTimersByTimeAsync(3_600_000));
    expect(api.getVisitState).toHaveBeenCalledTimes(1);
  });
});
