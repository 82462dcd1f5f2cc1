import type { Appointment } from '@telemedicina/shared/appointment';
import { describe, expect, it } from 'vitest';
import { formatCountdown, pickOpenVisits, visitMoment } from './next-visit';

const zone = 'America/Mexico_City';
/** Tuesday 1 December 2026, 22:00 in Mexico City. */
const now = new Date('2026-12-02T04:00:00.000Z');
const inMinutes = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

function visit(startsInMinutes: number, status: Appointment['status'] = 'confirmed'): Appointment {
  return {
    id: `v${startsInMinutes}`,
    doctor: { id: 'd', name: 'Dra. Ruiz', timeZone: zone },
    patient: { id: 'p', name: 'Luis' },
    startsAt: inMinutes(startsInMinutes),
    endsAt: inMinutes(startsInMinutes + 30),
    status,
    reason: null,
    createdAt: now.toISOString(),
    cancelledAt: null,
    cancellationReason: null,
  };
}

describe('the next visit', () => {
  it('counts down in words: now, minutes, hours, then calendar days in the account zone', () => {
    expect(formatCountdown(inMinutes(0), now, 'es', zone)).toBe('ahora');
    expect(formatCountdown(inMinutes(0), now, 'en', zone)).toBe('now');
    expect(formatCountdown(inMinutes(25), now, 'es', zone)).toBe('dentro de 25 minutos');
    // 10 hours ahead, but tomorrow morning in Mexico City: "mañana", not "dentro de 10 horas".
    expect(formatCountdown(inMinutes(10 * 60), now, 'es', zone)).toBe('mañana');
    expect(formatCountdown(inMinutes(10 * 60), now, 'en', zone)).toBe('tomorrow');
    expect(formatCountdown(inMinutes(3 * 24 * 60), now, 'es', zone)).toBe('dentro de 3 días');
  });

  it('opens for joining 15 minutes before the start (as the server does), and at once when under way', () => {
    expect(visitMoment(visit(3 * 24 * 60), now)).toBe('ahead');
    expect(visitMoment(visit(16), now)).toBe('ahead');
    expect(visitMoment(visit(15), now)).toBe('checkInOpen');
    expect(visitMoment(visit(-5, 'in_progress'), now)).toBe('underWay');
  });

  it('is the soonest open visit not over yet; cancelled and ended ones are left out', () => {
    const picked = pickOpenVisits(
      [visit(600), visit(60, 'cancelled'), visit(-45), visit(-45, 'in_progress'), visit(30)],
      now,
    );
    expect(picked.map((item) => item.id)).toEqual(['v-45', 'v30', 'v600']);
    expect(picked[0]!.status).toBe('in_progress');
  });
});
