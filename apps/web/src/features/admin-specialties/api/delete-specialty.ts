import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /specialties/:id` → 204 (409 SPECIALTY_IN_USE while doctors have it: deactivate it instead). */
export async function deleteSpecialty(id: string): Promise<void> {
  await api.delete<unknown>(`/specialties/${encodeURIComponent(id)}`, { alertOnError: false });
}

export function useDeleteSpecialty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteSpecialty,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminSpecialties.all() }),
  });
}
