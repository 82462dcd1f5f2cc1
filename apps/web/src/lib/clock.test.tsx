import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dateInZone,
  formatDateTime,
  formatLongDateTime,
  formatTime,
  formatTimeRange,
  formatTimeZoneName,
} from './clock';
import { uiState } from './ui-state';
import { useClock } from './use-clock';
import { queryKeys } from './query-keys';

// The device is in Madrid, the account in Mexico City — as for a patient abroad or a doctor
// travelling. A visit at 22:00 UTC on 27 November 2026 is 16:00 in Mexico City and 23:00 in Madrid.
const visit = '2026-11-27T22:00:00.000Z';
const visitEnd = '2026-11-27T22:30:00.000Z';
const account = 'America/Mexico_City';
let previousZone: string | undefined;

beforeAll(() => {
  previousZone = process.env.TZ;
  process.env.TZ = 'Europe/Madrid';
});

afterAll(() => {
  if (previousZone === undefined) {
    delete process.env.TZ;
  } else {
    process.env.TZ = previousZone;
  }
});

describe('the one clock, on a device whose zone is not the account’s', () => {
  it('runs on a device in Madrid (the premise of every other assertion)', () => {
    expect(new Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('Europe/Madrid');
    expect(new Date(visit).getHours()).toBe(23);
  });

  it('writes times in the account’s zone, not the device’s', () => {
    expect(formatTime(visit, 'es', account)).toBe('16:00');
    expect(formatTime(visit, 'en', account)).toBe('4:00 PM');
    expect(formatTimeRange(visit, visitEnd, 'es', account)).toBe('16:00–16:30');
    expect(formatTimeRange(visit, visitEnd, 'en', account)).toBe('4:00 PM–4:30 PM');
    expect(formatLongDateTime(visit, 'es', account)).toBe('viernes, 27 de noviembre de 2026, 16:00');
    expect(formatLongDateTime(visit, 'en', account)).toBe('Friday, November 27, 2026 at 4:00 PM');
    expect(formatDateTime(visit, 'es', account)).toContain('16:00');
    expect(dateInZone('2026-11-28T05:30:00.000Z', account)).toBe('2026-11-27');
  });

  it('falls back to UTC, never to the device, for an unknown zone; keeps unreadable text as is', () => {
    expect(formatTime(visit, 'es', 'Not/AZone')).toBe('22:00');
    expect(formatDateTime('not a date', 'es', account)).toBe('not a date');
  });

  it('names zones in words in the reader’s language, never by IANA id', () => {
    expect(formatTimeZoneName('America/Mexico_City', 'es')).toBe('hora de Ciudad de México');
    expect(formatTimeZoneName('America/Mexico_City', 'en')).toBe('Mexico City time');
    expect(formatTimeZoneName('Europe/Madrid', 'es')).toBe('hora de Madrid');
    expect(formatTimeZoneName('America/Argentina/Buenos_Aires', 'en')).toBe('Buenos Aires time');
    expect(formatTimeZoneName('UTC', 'es')).toBe('hora universal coordinada (UTC)');
  });

  it('useClock binds the signed-in account’s zone and the interface language', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(queryKeys.me(), { user: { timeZone: account } });
    uiState.setState({ language: 'es' });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useClock(), { wrapper });
    expect(result.current.timeZone).toBe(account);
    expect(result.current.time(visit)).toBe('16:00');
    expect(result.current.timeRange(visit, visitEnd)).toBe('16:00–16:30');
    expect(result.current.zoneName()).toBe('hora de Ciudad de México');
  });

  it('useClock uses the device’s zone only when no one is signed in', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(queryKeys.me(), null);
    uiState.setState({ language: 'es' });
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useClock(), { wrapper });
    expect(result.current.time(visit)).toBe('23:00');
  });
});
