import { roleSchema, type CreateRoleRequest, type Role } from '@telemedicina/shared/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { roleQuery } from './get-role';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /roles` → 201 the new role (409 ALREADY_EXISTS when the key is taken). */
export async function createRole(body: CreateRoleRequest): Promise<Role> {
  const answer = await api.post<unknown>('/roles', body, { alertOnError: false });
  return parseAnswer(roleSchema, answer);
}

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: async (role) => {
      queryClient.setQueryData(roleQuery(role.id).queryKey, role);
      await queryClient.invalidateQueries({ queryKey: queryKeys.adminRoles.lists() });
    },
  });
}
