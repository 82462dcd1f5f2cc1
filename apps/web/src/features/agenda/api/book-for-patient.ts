import { appointmentSchema, type Appointment } from '@telemedicina/shared/appointment';
import type { BookAppointmentRequest } from '@telemedicina/shared/booking';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /appointments` with `patientId`: reception books a free time for a patient (409 SLOT_TAKEN on a lost race). */
export async function bookForPatient(
  body: BookAppointmentRequest & { patientId: string },
): Promise<Appointment> {
  const answer = await api.post<unknown>('/appointments', body, { alertOnError: false });
  return parseAnswer(appointmentSchema, answer);
}

export function useBookForPatient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bookForPatient,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.appointments.clinicDays() }),
  });
}
