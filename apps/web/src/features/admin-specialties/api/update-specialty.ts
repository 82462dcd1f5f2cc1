import { specialtySchema, type Specialty, type UpdateSpecialtyRequest } from '@telemedicina/shared/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /specialties/:id` → the specialty with its new names or active flag. */
export async function updateSpecialty(id: string, body: UpdateSpecialtyRequest): Promise<Specialty> {
  const answer = await api.patch<unknown>(`/specialties/${encodeURIComponent(id)}`, body, {
    alertOnError: false,
  });
  return parseAnswer(specialtySchema, answer);
}

export function useUpdateSpecialty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateSpecialtyRequest }) => updateSpecialty(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminSpecialties.all() }),
  });
}
