import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `PUT /users/:id/roles { roleKeys }` → 204. Replaces the roles and ends that user's sessions (an
 * administrator changing their own roles gets a fresh session). 409 LAST_ADMIN / CANNOT_CHANGE_SELF.
 */
export async function setUserRoles(id: string, roleKeys: readonly string[]): Promise<void> {
  await api.put<unknown>(`/users/${encodeURIComponent(id)}/roles`, { roleKeys }, { alertOnError: false });
}

export function useSetUserRoles(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (roleKeys: readonly string[]) => setUserRoles(id, roleKeys),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers.all() }),
        // The session's own permissions change when administrators edit themselves.
        queryClient.invalidateQueries({ queryKey: queryKeys.me() }),
      ]),
  });
}
