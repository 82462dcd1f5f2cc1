import { doctorProfileSchema, type DoctorProfile } from '@telemedicina/shared/doctors';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /doctors/:id`: the agenda needs the doctor's name and zone. */
export async function getAgendaDoctor(id: string, signal?: AbortSignal): Promise<DoctorProfile> {
  const body = await api.get<unknown>(`/doctors/${encodeURIComponent(id)}`, {
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(doctorProfileSchema, body);
}

export function useAgendaDoctor(id: string | null) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.doctors.detail(id),
      queryFn: ({ signal }) => getAgendaDoctor(id!, signal),
      enabled: id !== null,
      retry: false,
      staleTime: 60_000,
    }),
  );
}
