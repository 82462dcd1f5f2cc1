import type { Appointment, AppointmentPage } from '@telemedicina/shared/appointment';
import type { JoinWaitlistRequest, WaitlistEntry } from '@telemedicina/shared/notifications';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/**
 * The patient's own place on a doctor's waiting list, shared by the doctor page and the
 * appointment page (features never import each other). One section per API call.
 */

// ---------------------------------------------------------------- GET /doctors/:id/waitlist

/** `GET /doctors/:id/waitlist` → own entry, or null when not on the list (the server's 404). */
export async function getWaitlistEntry(
  doctorId: string,
  signal?: AbortSignal,
): Promise<WaitlistEntry | null> {
  try {
    return await api.get<WaitlistEntry>(`/doctors/${encodeURIComponent(doctorId)}/waitlist`, {
      signal,
      showSpinner: false,
      alertOnError: false,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return null;
    }
    throw error;
  }
}

export const waitlistQuery = (doctorId: string) =>
  queryOptions({
    queryKey: queryKeys.waitlist.entry(doctorId),
    queryFn: ({ signal }) => getWaitlistEntry(doctorId, signal),
    enabled: doctorId !== '',
    staleTime: 30_000,
    retry: false,
  });

export function useWaitlistEntry(doctorId: string) {
  return useQuery(waitlistQuery(doctorId));
}

// ---------------------------------------------------------------- POST /doctors/:id/waitlist

/** `POST /doctors/:id/waitlist` → joins (or changes `before` of) own entry. */
export async function joinWaitlist(doctorId: string, request: JoinWaitlistRequest): Promise<WaitlistEntry> {
  return api.post<WaitlistEntry>(`/doctors/${encodeURIComponent(doctorId)}/waitlist`, request);
}

export function useJoinWaitlist(doctorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: JoinWaitlistRequest) => joinWaitlist(doctorId, request),
    onSuccess: (entry) => queryClient.setQueryData(queryKeys.waitlist.entry(doctorId), entry),
  });
}

// ---------------------------------------------------------------- DELETE /doctors/:id/waitlist

/** `DELETE /doctors/:id/waitlist` → leaves the list (404 when not on it: already left elsewhere). */
export async function leaveWaitlist(doctorId: string): Promise<void> {
  try {
    await api.delete<null>(`/doctors/${encodeURIComponent(doctorId)}/waitlist`, { alertOnError: false });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) {
      throw error;
    }
  }
}

export function useLeaveWaitlist(doctorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => leaveWaitlist(doctorId),
    onSuccess: () => queryClient.setQueryData(queryKeys.waitlist.entry(doctorId), null),
  });
}

// ---------------------------------------------------------------- GET /appointments (next one with the doctor)

/** The viewer's next live appointment with the doctor (what "only earlier than mine" refers to), or null. */
export async function getNextAppointmentWith(
  doctorId: string,
  signal?: AbortSignal,
): Promise<Appointment | null> {
  const page = await api.get<AppointmentPage>('/appointments', {
    query: {
      doctorId,
      from: new Date().toISOString(),
      status: 'confirmed',
      page: 1,
      pageSize: 1,
      sort: 'startsAt',
      order: 'asc',
    },
    signal,
    showSpinner: false,
    alertOnError: false,
  });
  return page.data[0] ?? null;
}

export function useNextAppointmentWith(doctorId: string, isEnabled: boolean) {
  return useQuery({
    queryKey: queryKeys.waitlist.nextAppointment(doctorId),
    queryFn: ({ signal }) => getNextAppointmentWith(doctorId, signal),
    enabled: isEnabled && doctorId !== '',
    staleTime: 30_000,
    retry: false,
  });
}
