import { waitingRoomSchema, type WaitingRoom } from '@telemedicina/shared/visits';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /doctors/:doctorId/waiting-room`: today's open visits of a doctor (live updates come by socket). */
export async function getWaitingRoom(doctorId: string, signal?: AbortSignal): Promise<WaitingRoom> {
  const body = await api.get<unknown>(`/doctors/${encodeURIComponent(doctorId)}/waiting-room`, {
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(waitingRoomSchema, body);
}

export function useWaitingRoom(doctorId: string | null) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.waitingRoom.ofDoctor(doctorId ?? ''),
      queryFn: ({ signal }) => getWaitingRoom(doctorId ?? '', signal),
      enabled: doctorId !== null && doctorId !== '',
      retry: false,
    }),
  );
}

const doctorChoicesSchema = z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) });

/** `GET /doctors?pageSize=100`: the doctors staff may pick a waiting room of. */
export async function getDoctorChoices(signal?: AbortSignal) {
  const body = await api.get<unknown>('/doctors', { query: { pageSize: 100 }, signal, alertOnError: false });
  return parseAnswer(doctorChoicesSchema, body).data;
}

export function useDoctorChoices(enabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.waitingRoom.doctors(),
      queryFn: ({ signal }) => getDoctorChoices(signal),
      enabled,
      retry: false,
    }),
  );
}
