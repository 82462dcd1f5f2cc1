import { describe, expect, it } from 'vitest';
import { appointmentActions, capacityFor } from './capacity';

const appointment = {
  doctor: { id: 'doc', name: 'Dra. Ruiz', timeZone: 'Europe/Madrid' },
  patient: { id: 'pat', name: 'Luis' },
};
const future = { status: 'confirmed' as const, startsAt: '2030-01-01T10:00:00.000Z' };
const now = new Date('2026-11-21T12:00:00.000Z');

describe('appointment permissions', () => {
  it('gives the capacity the server gives', () => {
    expect(capacityFor({ userId: 'x', permissions: ['appointments.manage.any'] }, appointment)).toBe('staff');
    expect(capacityFor({ userId: 'doc', permissions: ['appointments.read.own'] }, appointment)).toBe(
      'doctor',
    );
    expect(
      capacityFor(
        { userId: 'pat', permissions: ['appointments.read.own', 'appointments.book.self'] },
        appointment,
      ),
    ).toBe('patient');
    // Reading everything is not changing anything.
    expect(capacityFor({ userId: 'x', permissions: ['appointments.read.any'] }, appointment)).toBeNull();
    expect(capacityFor({ userId: 'pat', permissions: ['appointments.read.own'] }, appointment)).toBeNull();
  });

  it('offers cancel and reschedule by status and time; reason required except for patients', () => {
    expect(appointmentActions('patient', future, now)).toEqual({
      canCancel: true,
      canReschedule: true,
      reasonRequired: false,
    });
    expect(appointmentActions('doctor', future, now).reasonRequired).toBe(true);
    expect(appointmentActions('staff', { ...future, status: 'checked_in' }, now)).toMatchObject({
      canCancel: true,
      canReschedule: false,
    });
    expect(appointmentActions('patient', { ...future, status: 'completed' }, now)).toMatchObject({
      canCancel: false,
      canReschedule: false,
    });
    expect(
      appointmentActions('patient', { ...future, startsAt: '2026-11-20T10:00:00.000Z' }, now).canReschedule,
    ).toBe(false);
    expect(appointmentActions(null, future, now)).toMatchObject({ canCancel: false, canReschedule: false });
  });
});
