import {
  appointmentPageSchema,
  appointmentSchema,
  type Appointment,
  type AppointmentPage,
} from '@telemedicina/shared/appointment';
import type { AppointmentListQuery } from '@telemedicina/shared/booking';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { appConfig } from '../../../lib/config';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** What the list asks for (the list's URL state turned into the endpoint's filters). */
export type AppointmentsRequest = Pick<AppointmentListQuery, 'page' | 'pageSize' | 'sort' | 'order'> & {
  status: AppointmentListQuery['status'];
  from: string | undefined;
  to: string | undefined;
  /** Staff (`appointments.read.any`): one doctor's appointments. */
  doctorId?: string | undefined;
  /** The section search: doctor or patient name. */
  q?: string | undefined;
};

/** `GET /appointments?page&pageSize&status&from&to&doctorId&q&sort&order` → one page (the server limits it to the viewer's). */
export async function getAppointments(
  request: AppointmentsRequest,
  signal?: AbortSignal,
): Promise<AppointmentPage> {
  const body = await api.get<unknown>('/appointments', {
    query: { ...request },
    signal,
    alertOnError: false,
  });
  return parseAnswer(appointmentPageSchema, body);
}

export function useAppointments(request: AppointmentsRequest) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.appointments.list(request),
      queryFn: ({ signal }) => getAppointments(request, signal),
      retry: false,
      placeholderData: keepPreviousData,
    }),
  );
}

/** `GET /appointments/:id`. */
export async function getAppointment(id: string, signal?: AbortSignal): Promise<Appointment> {
  const body = await api.get<unknown>(`/appointments/${encodeURIComponent(id)}`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(appointmentSchema, body);
}

export function useAppointment(id: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.appointments.detail(id),
      queryFn: ({ signal }) => getAppointment(id, signal),
      retry: false,
    }),
  );
}

function useAppointmentChange<V>(request: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (variables: V) => parseAnswer(appointmentSchema, await request(variables)),
    onSuccess: (appointment) => {
      queryClient.setQueryData(queryKeys.appointments.detail(appointment.id), appointment);
      void queryClient.invalidateQueries({ queryKey: queryKeys.appointments.lists() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.doctorSlots.all() });
    },
  });
}

/** `POST /appointments/:id/cancel {reason?}` (409 CANCELLATION_WINDOW_PASSED when it is too late). */
export function useCancelAppointment() {
  return useAppointmentChange(({ id, reason }: { id: string; reason?: string }) =>
    api.post<unknown>(`/appointments/${encodeURIComponent(id)}/cancel`, reason ? { reason } : {}, {
      alertOnError: false,
    }),
  );
}

/** `POST /appointments/:id/reschedule {startsAt}` (409 SLOT_TAKEN when the new time went meanwhile). */
export function useRescheduleAppointment() {
  return useAppointmentChange(({ id, startsAt }: { id: string; startsAt: string }) =>
    api.post<unknown>(
      `/appointments/${encodeURIComponent(id)}/reschedule`,
      { startsAt },
      { alertOnError: false },
    ),
  );
}

/** The `.ics` file of an appointment (a plain link: the browser downloads it with the session cookie). */
export function calendarUrl(id: string): string {
  return `${appConfig.apiBaseUrl}/appointments/${encodeURIComponent(id)}/calendar.ics`;
}
