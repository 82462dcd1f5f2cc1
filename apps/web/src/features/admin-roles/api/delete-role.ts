import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `DELETE /roles/:id` → 204 (409 ROLE_IN_USE while anyone holds it, SYSTEM_ROLE_LOCKED for system roles). */
export async function deleteRole(id: string): Promise<void> {
  await api.delete<unknown>(`/roles/${encodeURIComponent(id)}`, { alertOnError: false });
}

export function useDeleteRole(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteRole(id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: queryKeys.adminRoles.detail(id) });
      return queryClient.invalidateQueries({ queryKey: queryKeys.adminRoles.lists() });
    },
  });
}
