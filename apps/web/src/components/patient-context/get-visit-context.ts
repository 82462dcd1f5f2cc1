import { appointmentSchema, type Appointment } from '@telemedicina/shared/appointment';
import { chartSchema, type Allergy, type Chart, type PatientSex } from '@telemedicina/shared/records';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { parseAnswer } from '../../lib/parse-answer';
import { queryKeys } from '../../lib/query-keys';

/** Who the doctor is writing for and about which visit: what the context header shows. */
export interface VisitContext {
  patient: {
    id: string;
    name: string;
    dateOfBirth: string | null;
    sex: PatientSex;
    /** Current allergies; null when the reader gets the administrative part of the chart only. */
    allergies: Allergy[] | null;
  };
  visit: Pick<Appointment, 'id' | 'startsAt' | 'endsAt' | 'reason' | 'isReasonWithheld' | 'status'> | null;
}

async function getAppointment(appointmentId: string, signal?: AbortSignal): Promise<Appointment> {
  const body = await api.get<unknown>(`/appointments/${encodeURIComponent(appointmentId)}`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(appointmentSchema, body);
}

async function getChart(patientId: string, signal?: AbortSignal): Promise<Chart> {
  const body = await api.get<unknown>(`/patients/${encodeURIComponent(patientId)}/chart`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(chartSchema, body);
}

/**
 * The context of a note or a prescription, read from the endpoints the doctor is already
 * authorized for (the server decides: the appointment answers its own doctor, the chart answers a
 * treating doctor and is audited as a record view, the visit's reason follows the reason policy).
 * With an appointment the patient is the appointment's; without one only the patient is shown.
 */
export async function getVisitContext(
  input: { appointmentId: string | null; patientId: string | null },
  signal?: AbortSignal,
): Promise<VisitContext> {
  const appointment = input.appointmentId === null ? null : await getAppointment(input.appointmentId, signal);
  const patientId = appointment?.patient.id ?? input.patientId;
  if (patientId === null) {
    throw new Error('A visit context needs an appointment or a patient.');
  }
  const chart = await getChart(patientId, signal);
  const visit = appointment ?? null;
  return {
    patient: {
      id: patientId,
      name: chart.demographics.name,
      dateOfBirth: chart.demographics.dateOfBirth,
      sex: chart.demographics.sex,
      allergies:
        chart.clinical === null
          ? null
          : chart.clinical.allergies.filter((allergy) => allergy.removedAt === null),
    },
    visit:
      visit === null
        ? null
        : {
            id: visit.id,
            startsAt: visit.startsAt,
            endsAt: visit.endsAt,
            reason: visit.reason,
            isReasonWithheld: visit.isReasonWithheld,
            status: visit.status,
          },
  };
}

/** The header's own query (its key is its own: no other feature's cache is read or written). */
export function useVisitContext(appointmentId: string | null, patientId: string | null) {
  return useQuery({
    queryKey: queryKeys.visitContext(appointmentId, patientId),
    queryFn: ({ signal }) => getVisitContext({ appointmentId, patientId }, signal),
    enabled: appointmentId !== null || patientId !== null,
    retry: false,
    staleTime: 60_000,
  });
}

/** Whole years between a birth date (`YYYY-MM-DD`) and today's date (`YYYY-MM-DD`). */
export function ageOn(dateOfBirth: string, today: string): number | null {
  const birth = /^(\d{4})-(\d{2})-(\d{2})$/.exec(dateOfBirth);
  const now = /^(\d{4})-(\d{2})-(\d{2})$/.exec(today);
  if (birth === null || now === null) {
    return null;
  }
  const years = Number(now[1]) - Number(birth[1]);
  const hadBirthday = `${now[2]}-${now[3]}` >= `${birth[2]}-${birth[3]}`;
  const age = hadBirthday ? years : years - 1;
  return age >= 0 ? age : null;
}
