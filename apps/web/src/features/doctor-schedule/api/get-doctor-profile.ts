import { doctorProfileSchema, type DoctorProfile } from '@telemedicina/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';

export const doctorDetailKey = (id: string) => ['doctors', 'detail', id] as const;

/** `GET /doctors/:id` (404 for a doctor whose profile an administrator has not created yet). */
export async function getDoctorProfile(id: string, signal?: AbortSignal): Promise<DoctorProfile> {
  const body = await api.get<unknown>(`/doctors/${encodeURIComponent(id)}`, { signal, alertOnError: false });
  return parseAnswer(doctorProfileSchema, body);
}

export function useDoctorProfile(id: string) {
  return useQuery(
    queryOptions({
      queryKey: doctorDetailKey(id),
      queryFn: ({ signal }) => getDoctorProfile(id, signal),
      retry: false,
    }),
  );
}
