import { describe, expect, it } from 'vitest';
import { estimateQueue, type QueueAppointment } from './visit-queue.js';
import { visitPhaseOf } from './visit-state.service.js';

const at = (time: string): Date => new Date(`2026-06-15T${time}:00.000Z`);

function appointment(
  id: string,
  start: string,
  end: string,
  status: string,
  checkedIn?: string,
): QueueAppointment {
  return { id, startsAt: at(start), endsAt: at(end), status, checkedInAt: checkedIn ? at(checkedIn) : null };
}

describe('the doctor’s queue', () => {
  const day = [
    appointment('current', '09:30', '10:00', 'in_progress'),
    appointment('late-comer', '10:30', '11:00', 'checked_in', '09:58'),
    appointment('next', '10:00', '10:30', 'checked_in', '09:50'),
    appointment('not-here', '11:00', '11:30', 'confirmed'),
  ];

  it('orders waiting patients by appointment time and waits for the visit in progress', () => {
    const queue = estimateQueue(day, at('09:45'), null);
    expect(queue.get('next')).toEqual({ position: 1, waitMinutes: 15 });
    expect(queue.get('late-comer')).toEqual({ position: 2, waitMinutes: 45 });
    expect(queue.has('not-here')).toBe(false);
    expect(queue.has('current')).toBe(false);
  });

  it('pushes every estimate back by the announced delay', () => {
    const queue = estimateQueue(day, at('09:45'), 20);
    expect(queue.get('next')).toEqual({ position: 1, waitMinutes: 35 });
    expect(queue.get('late-comer')).toEqual({ position: 2, waitMinutes: 65 });
  });

  it('chains overruns: a visit starting late pushes the ones after it', () => {
    const queue = estimateQueue(
      [
        appointment('current', '09:00', '10:15', 'in_progress'),
        appointment('a', '10:00', '10:30', 'checked_in'),
        appointment('b', '10:30', '11:00', 'checked_in'),
      ],
      at('10:05'),
      null,
    );
    expect(queue.get('a')).toEqual({ position: 1, waitMinutes: 10 });
    expect(queue.get('b')).toEqual({ position: 2, waitMinutes: 40 });
  });

  it('never answers a negative wait', () => {
    const queue = estimateQueue([appointment('a', '09:00', '09:30', 'checked_in')], at('09:20'), null);
    expect(queue.get('a')).toEqual({ position: 1, waitMinutes: 0 });
  });
});

describe('visit phases', () => {
  const visit = { startsAt: at('10:00'), endsAt: at('10:30') };
  it.each([
    ['confirmed', 'patient', '09:44', 'too_early'],
    ['confirmed', 'patient', '09:45', 'check_in_open'],
    ['confirmed', 'doctor', '09:50', 'in_call'],
    ['confirmed', 'doctor', '09:40', 'too_early'],
    ['checked_in', 'patient', '09:50', 'waiting'],
    ['checked_in', 'patient', '11:31', 'closed'],
    ['confirmed', 'patient', '11:30', 'check_in_open'],
    ['in_progress', 'patient', '12:00', 'in_call'],
    ['in_progress', 'guest', '10:05', 'waiting'],
    ['completed', 'doctor', '10:40', 'ended'],
    ['cancelled', 'patient', '09:50', 'closed'],
    ['no_show', 'doctor', '09:50', 'closed'],
  ] as const)('%s, as %s at %s → %s', (status, capacity, now, phase) => {
    expect(visitPhaseOf({ ...visit, status }, capacity, at(now))).toBe(phase);
  });

  it('puts an admitted guest in the call', () => {
    expect(visitPhaseOf({ ...visit, status: 'in_progress' }, 'guest', at('10:05'), true)).toBe('in_call');
  });
});
