import { roleSchema, type Role, type UpdateRoleRequest } from '@telemedicina/shared/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { roleQuery } from './get-role';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /roles/:id` → the role with its new names and grants (409 SYSTEM_ROLE_LOCKED). */
export async function updateRole(id: string, body: UpdateRoleRequest): Promise<Role> {
  const answer = await api.patch<unknown>(`/roles/${encodeURIComponent(id)}`, body, { alertOnError: false });
  return parseAnswer(roleSchema, answer);
}

export function useUpdateRole(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateRoleRequest) => updateRole(id, body),
    onSuccess: async (role) => {
      queryClient.setQueryData(roleQuery(id).queryKey, role);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.adminRoles.lists() }),
        // Editors holding this role see their own permissions change.
        queryClient.invalidateQueries({ queryKey: queryKeys.me() }),
      ]);
    },
  });
}
