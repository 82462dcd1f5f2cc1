import { vitalsResponseSchema, type ReportVitalsRequest, type Vitals } from '@telemedicina/shared/notes';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

const vitalsPath = (appointmentId: string) => `/appointments/${encodeURIComponent(appointmentId)}/vitals`;

/** `GET /appointments/:appointmentId/vitals`: what the patient reported for that visit (null before). */
export async function getVitals(appointmentId: string, signal?: AbortSignal): Promise<Vitals | null> {
  const body = await api.get<unknown>(vitalsPath(appointmentId), { signal, alertOnError: false });
  return parseAnswer(vitalsResponseSchema, body).vitals;
}

/**
 * `PUT /appointments/:appointmentId/vitals` (the patient, until the note is signed): replaces the
 * report. 400 VALIDATION_FAILED names the fields out of range.
 */
export async function reportVitals(
  appointmentId: string,
  request: ReportVitalsRequest,
): Promise<Vitals | null> {
  const body = await api.put<unknown>(vitalsPath(appointmentId), request, { alertOnError: false });
  return parseAnswer(vitalsResponseSchema, body).vitals;
}

export function useReportVitals(appointmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ReportVitalsRequest) => reportVitals(appointmentId, request),
    onSuccess: (vitals) => {
      queryClient.setQueryData(queryKeys.appointments.vitals(appointmentId), vitals);
      void queryClient.invalidateQueries({ queryKey: queryKeys.appointments.note(appointmentId) });
    },
  });
}
