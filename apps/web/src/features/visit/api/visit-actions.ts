import { visitStateSchema, type AdmitRequest, type VisitState } from '@telemedicina/shared/visits';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

const path = (appointmentId: string, action: string) =>
  `/visits/${encodeURIComponent(appointmentId)}/${action}`;

/** `POST /visits/:id/check-in` (the patient; 409 VISIT_NOT_OPEN before the window). */
export async function checkIn(appointmentId: string): Promise<VisitState> {
  return parseAnswer(
    visitStateSchema,
    await api.post<unknown>(path(appointmentId, 'check-in'), {}, { alertOnError: false }),
  );
}

export function useCheckIn(appointmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => checkIn(appointmentId),
    onSuccess: (state) => queryClient.setQueryData(queryKeys.visit.state(appointmentId), state),
  });
}

/** `POST /visits/:id/admit {participantKey?}` (the host): the patient, or one waiting guest. */
export async function admit(appointmentId: string, request: AdmitRequest = {}): Promise<unknown> {
  return api.post<unknown>(path(appointmentId, 'admit'), request, { alertOnError: false });
}

export function useAdmit() {
  return useMutation({
    mutationFn: ({ appointmentId, participantKey }: { appointmentId: string; participantKey?: string }) =>
      admit(appointmentId, participantKey ? { participantKey } : {}),
  });
}

/** `POST /visits/:id/end` (the host): the appointment becomes completed. */
export async function endVisit(appointmentId: string): Promise<unknown> {
  return api.post<unknown>(path(appointmentId, 'end'), {}, { alertOnError: false });
}

export function useEndVisit(appointmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => endVisit(appointmentId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.visit.state(appointmentId) }),
  });
}

/** `POST /visits/:id/running-late {minutes}` (the host; null or 0 clears the notice). */
export async function setRunningLate(appointmentId: string, minutes: number | null): Promise<unknown> {
  return api.post<unknown>(path(appointmentId, 'running-late'), { minutes }, { alertOnError: false });
}

export function useRunningLate() {
  return useMutation({
    mutationFn: ({ appointmentId, minutes }: { appointmentId: string; minutes: number | null }) =>
      setRunningLate(appointmentId, minutes),
  });
}
