import type { Language } from '@telemedicina/shared/i18n';
import type { ClinicDay, PatientMatch } from '@telemedicina/shared/reception';
import type { DayAppointmentRow, DayDoctorRow, PatientMatchRow } from './reception.repository.js';

/** One doctor's column of the day, as the service assembled it. */
export interface ClinicDayColumn {
  doctor: DayDoctorRow;
  specialties: readonly { nameEs: string; nameEn: string }[];
  appointments: readonly DayAppointmentRow[];
  freeSlots: readonly { startsAt: Date; endsAt: Date }[];
}

/**
 * The clinic's day for its reader: instants as ISO strings, specialty names in the reader's
 * language, patients by id and name only (the reason for the visit stays on the appointment page,
 * where `canReadVisitReason` decides).
 */
export function presentClinicDay(
  day: { date: string; timeZone: string; from: Date; to: Date; doctors: readonly ClinicDayColumn[] },
  language: string,
): ClinicDay {
  const lang: Language = language === 'en' ? 'en' : 'es';
  return {
    date: day.date,
    timeZone: day.timeZone,
    from: day.from.toISOString(),
    to: day.to.toISOString(),
    doctors: day.doctors.map((column) => ({
      id: column.doctor.userId,
      name: column.doctor.name,
      specialties: column.specialties.map((specialty) =>
        lang === 'en' ? specialty.nameEn : specialty.nameEs,
      ),
      visitMinutes: column.doctor.visitMinutes,
      appointments: column.appointments.map((row) => ({
        id: row.id,
        patient: { id: row.patientUserId, name: row.patientName },
        startsAt: row.startsAt.toISOString(),
        endsAt: row.endsAt.toISOString(),
        status: row.status,
      })),
      freeSlots: column.freeSlots.map((slot) => ({
        startsAt: slot.startsAt.toISOString(),
        endsAt: slot.endsAt.toISOString(),
      })),
    })),
  };
}

/** A patient found or registered by reception. */
export function presentPatientMatch(
  row: Pick<PatientMatchRow, 'id' | 'name' | 'email' | 'phone' | 'dateOfBirth' | 'hasPassword'>,
): PatientMatch {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    dateOfBirth: row.dateOfBirth,
    hasSignedUp: row.hasPassword,
  };
}
