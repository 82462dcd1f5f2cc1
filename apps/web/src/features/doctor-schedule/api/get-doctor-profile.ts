import { doctorProfileSchema, type DoctorProfile } from '@telemedicina/shared/doctors';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /doctors/:id` (404 for a doctor whose profile an administrator has not created yet). */
export async function getDoctorProfile(id: string, signal?: AbortSignal): Promise<DoctorProfile> {
  const body = await api.get<unknown>(`/doctors/${encodeURIComponent(id)}`, { signal, alertOnError: false });
  return parseAnswer(doctorProfileSchema, body);
}

export function useDoctorProfile(id: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.doctors.detail(id),
      queryFn: ({ signal }) => getDoctorProfile(id, signal),
      retry: false,
    }),
  );
}
