import { doctorDirectoryPageSchema } from '@telemedicina/shared/doctors';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { parseAnswer } from './parse-answer';
import { queryKeys } from './query-keys';

/** The doctors staff pick from (agenda, appointment filters) (`GET /doctors`, by name, up to 100). */
export async function getDoctorOptions(signal?: AbortSignal): Promise<{ id: string; name: string }[]> {
  const body = await api.get<unknown>('/doctors', {
    query: { page: 1, pageSize: 100, sort: 'name', order: 'asc' },
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(doctorDirectoryPageSchema, body).data.map(({ id, name }) => ({ id, name }));
}

export function useDoctorOptions(isEnabled: boolean) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.doctorOptions(),
      queryFn: ({ signal }) => getDoctorOptions(signal),
      enabled: isEnabled,
      retry: false,
      staleTime: 60_000,
    }),
  );
}
