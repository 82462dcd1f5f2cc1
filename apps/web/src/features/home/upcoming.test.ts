import type { Appointment } from '@telemedicina/shared/appointment';
import { describe, expect, it } from 'vitest';
import es from '../../../public/assets/i18n/es.json';
import en from '../../../public/assets/i18n/en.json';
import { homeLinkKeys } from './links';
import { canJoinNow, formatRelativeStart, pickUpcoming, upcomingWindowStart } from './upcoming';

const now = new Date('2030-03-04T09:00:00.000Z');

function at(
  id: string,
  startsAt: string,
  minutes: number,
  status: Appointment['status'] = 'confirmed',
): Appointment {
  return {
    id,
    doctor: { id: 'doc-1', name: 'Dra. Carmen Ruiz', timeZone: 'Europe/Madrid' },
    patient: { id: 'pat-1', name: 'Luis García' },
    startsAt,
    endsAt: new Date(new Date(startsAt).getTime() + minutes * 60_000).toISOString(),
    status,
    reason: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    cancelledAt: null,
    cancellationReason: null,
  };
}

describe('home page: upcoming appointments', () => {
  it('asks from two hours back, so a visit under way or running late still shows', () => {
    expect(upcomingWindowStart(now)).toBe('2030-03-04T07:00:00.000Z');
  });

  it('keeps open appointments that have not ended, soonest first, at most three', () => {
    const list = [
      at('later', '2030-03-06T10:00:00.000Z', 30),
      at('ended', '2030-03-04T08:00:00.000Z', 30),
      at('running', '2030-03-04T08:45:00.000Z', 30, 'in_progress'),
      at('cancelled', '2030-03-04T10:00:00.000Z', 30, 'cancelled'),
      at('done', '2030-03-04T08:50:00.000Z', 30, 'completed'),
      at('no-show', '2030-03-04T08:55:00.000Z', 30, 'no_show'),
      at('soon', '2030-03-04T09:10:00.000Z', 30, 'checked_in'),
      at('tomorrow', '2030-03-05T09:00:00.000Z', 30, 'requested'),
    ];
    expect(pickUpcoming(list, now).map((item) => item.id)).toEqual(['running', 'soon', 'tomorrow']);
    expect(pickUpcoming(list, now, 10).map((item) => item.id)).toEqual([
      'running',
      'soon',
      'tomorrow',
      'later',
    ]);
  });

  it('offers the visit from check-in (15 minutes before) until the end, never for a closed one', () => {
    expect(canJoinNow(at('a', '2030-03-04T09:16:00.000Z', 30), now)).toBe(false);
    expect(canJoinNow(at('a', '2030-03-04T09:15:00.000Z', 30), now)).toBe(true);
    expect(canJoinNow(at('a', '2030-03-04T08:40:00.000Z', 30, 'in_progress'), now)).toBe(true);
    expect(canJoinNow(at('a', '2030-03-04T08:30:00.000Z', 30), now)).toBe(false);
    expect(canJoinNow(at('a', '2030-03-04T09:05:00.000Z', 30, 'cancelled'), now)).toBe(false);
  });

  it('says when in words, in the reader language', () => {
    expect(formatRelativeStart('2030-03-04T09:20:00.000Z', now, 'es')).toBe('dentro de 20 minutos');
    expect(formatRelativeStart('2030-03-04T12:00:00.000Z', now, 'en')).toBe('in 3 hours');
    expect(formatRelativeStart('2030-03-05T09:00:00.000Z', now, 'es')).toBe('mañana');
    expect(formatRelativeStart('2030-03-09T09:00:00.000Z', now, 'en')).toBe('in 5 days');
    expect(formatRelativeStart('2030-03-04T08:50:00.000Z', now, 'en')).toBe('10 minutes ago');
  });

  it('has a title and a description for every shortcut, in both languages', () => {
    for (const texts of [es, en] as const) {
      for (const key of homeLinkKeys) {
        expect(typeof (texts.admin.nav as Record<string, unknown>)[key], key).toBe('string');
        expect(typeof (texts.home.links as Record<string, unknown>)[key], key).toBe('string');
      }
    }
  });
});
