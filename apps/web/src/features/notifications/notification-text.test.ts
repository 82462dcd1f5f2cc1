import type { Notification } from '@telemedicina/shared/notifications';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../../test/render';
import { describeNotification } from './notification-text';

const appointmentId = '0b7f3c1e-5a2d-4c8e-9f10-1234567890ab';
const doctorId = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

function word(
  kind: Notification['kind'],
  data: Record<string, unknown>,
  language: 'es' | 'en' = 'es',
  timeZone = 'Europe/Madrid',
) {
  const i18n = createTestI18n(language);
  return describeNotification({ kind, data }, i18n.t, language, timeZone);
}

describe('notification wording per kind', () => {
  const startsAt = '2026-03-27T08:00:00.000Z';

  it('words a booking with its time in the viewer’s zone and links to the appointment', () => {
    const es = word('appointment.booked', { appointmentId, startsAt });
    expect(es.title).toBe('Cita confirmada');
    expect(es.body).toMatch(/^Cita reservada para el 27 mar 2026, 9:00\.$/);
    expect(es.link).toBe(`/admin/appointments/${appointmentId}`);
    const mexico = word('appointment.booked', { appointmentId, startsAt }, 'es', 'America/Mexico_City');
    expect(mexico.body).toMatch(/27 mar 2026, 2:00/);
    const en = word('appointment.booked', { appointmentId, startsAt }, 'en');
    expect(en.title).toBe('Appointment confirmed');
    expect(en.body).toMatch(/^Appointment booked for Mar 27, 2026, 9:00\sAM\.$/);
  });

  it('words a change with both times', () => {
    const view = word('appointment.rescheduled', {
      appointmentId,
      startsAt,
      previousStartsAt: '2026-03-26T15:30:00.000Z',
    });
    expect(view.title).toBe('Cita cambiada de hora');
    expect(view.body).toMatch(/^La cita pasó del 26 mar 2026, 16:30 al 27 mar 2026, 9:00\.$/);
    expect(word('appointment.rescheduled', { appointmentId, startsAt }).body).toMatch(
      /^La cita es ahora el 27 mar 2026, 9:00\.$/,
    );
  });

  it('words a cancellation by who cancelled it, and without one', () => {
    expect(word('appointment.cancelled', { appointmentId, startsAt, by: 'doctor' }).body).toMatch(
      /^El médico canceló la cita del 27 mar 2026, 9:00\.$/,
    );
    expect(word('appointment.cancelled', { appointmentId, startsAt, by: 'patient' }).body).toMatch(
      /^El paciente canceló/,
    );
    expect(word('appointment.cancelled', { appointmentId, startsAt, by: 'staff' }, 'en').body).toMatch(
      /^The clinic cancelled the appointment on Mar 27, 2026/,
    );
    expect(word('appointment.cancelled', { appointmentId, startsAt, by: '<b>x</b>' }).body).toMatch(
      /^Se canceló la cita del 27 mar 2026, 9:00\.$/,
    );
  });

  it('tells the reader who cancelled that they did; the other side reads who it was', () => {
    const patientCancelled = { appointmentId, startsAt, by: 'patient' };
    expect(word('appointment.cancelled', { ...patientCancelled, recipient: 'patient' }).body).toMatch(
      /^Usted canceló la cita del 27 mar 2026, 9:00\.$/,
    );
    expect(word('appointment.cancelled', { ...patientCancelled, recipient: 'patient' }, 'en').body).toMatch(
      /^You cancelled the appointment on Mar 27, 2026/,
    );
    expect(word('appointment.cancelled', { ...patientCancelled, recipient: 'doctor' }).body).toMatch(
      /^El paciente canceló la cita del 27 mar 2026, 9:00\.$/,
    );
    const doctorCancelled = { appointmentId, startsAt, by: 'doctor' };
    expect(word('appointment.cancelled', { ...doctorCancelled, recipient: 'doctor' }).body).toMatch(
      /^Usted canceló/,
    );
    expect(word('appointment.cancelled', { ...doctorCancelled, recipient: 'patient' }).body).toMatch(
      /^El médico canceló/,
    );
    expect(
      word('appointment.cancelled', { appointmentId, startsAt, by: 'staff', recipient: 'patient' }).body,
    ).toMatch(/^La clínica canceló/);
  });

  it('words the 24 h and 1 h reminders', () => {
    expect(word('appointment.reminder', { appointmentId, startsAt, reminder: '24h' }).body).toMatch(
      /^Su cita es mañana: 27 mar 2026, 9:00\.$/,
    );
    expect(word('appointment.reminder', { appointmentId, startsAt, reminder: '1h' }, 'en').body).toMatch(
      /^Your appointment starts in one hour: Mar 27, 2026/,
    );
    expect(word('appointment.reminder', { appointmentId, startsAt }).title).toBe('Recordatorio de cita');
  });

  it('words a freed slot and links to the doctor’s page to book it', () => {
    const view = word('waitlist.slotFreed', { doctorId, startsAt });
    expect(view.title).toBe('Se liberó un horario antes');
    expect(view.body).toMatch(/^Quedó libre el 27 mar 2026, 9:00\./);
    expect(view.link).toBe(`/admin/doctors/${doctorId}`);
  });

  it('never shows a raw key, "undefined" or a link built from junk when data is missing or odd', () => {
    for (const kind of [
      'appointment.booked',
      'appointment.rescheduled',
      'appointment.cancelled',
      'appointment.reminder',
      'waitlist.slotFreed',
    ] as const) {
      for (const language of ['es', 'en'] as const) {
        const view = word(
          kind,
          { appointmentId: '../../logout', doctorId: 42, startsAt: 'nonsense' },
          language,
        );
        expect(view.link).toBeNull();
        for (const part of [view.title, view.body]) {
          expect(part).not.toMatch(/notifications\.|undefined|\{\{/);
          expect(part.length).toBeGreaterThan(5);
        }
      }
    }
    expect(word('appointment.booked', {}).body).toBe('Cita reservada para el día por confirmar.');
  });
});
