import { specialtySchema, type CreateSpecialtyRequest, type Specialty } from '@telemedicina/shared/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /specialties` → 201 the new specialty (409 ALREADY_EXISTS with `details.fields` when a name is taken). */
export async function createSpecialty(body: CreateSpecialtyRequest): Promise<Specialty> {
  const answer = await api.post<unknown>('/specialties', body, { alertOnError: false });
  return parseAnswer(specialtySchema, answer);
}

export function useCreateSpecialty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSpecialty,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminSpecialties.all() }),
  });
}
