import {
  doctorProfileSchema,
  type DoctorProfile,
  type UpdateDoctorProfileRequest,
} from '@telemedicina/shared/doctors';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `PATCH /doctors/:id`: the profile and its specialties in one request (one transaction and one
 * audit event on the server; `specialtyIds` there replaces the set like `PUT /doctors/:id/specialties`).
 */
export async function updateDoctorProfile(
  id: string,
  request: UpdateDoctorProfileRequest,
): Promise<DoctorProfile> {
  const body = await api.patch<unknown>(`/doctors/${encodeURIComponent(id)}`, request, {
    alertOnError: false,
  });
  return parseAnswer(doctorProfileSchema, body);
}

export function useUpdateDoctorProfile(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: UpdateDoctorProfileRequest) => updateDoctorProfile(id, request),
    onSuccess: (profile) => {
      queryClient.setQueryData(queryKeys.doctors.detail(id), profile);
      void queryClient.invalidateQueries({ queryKey: queryKeys.doctors.lists() });
    },
  });
}
