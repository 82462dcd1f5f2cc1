import { adminUserSchema, type AdminUpdateUserRequest, type AdminUser } from '@telemedicina/shared/admin';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { userQuery } from './get-user';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /users/:id` → the updated account. */
export async function updateUser(id: string, body: AdminUpdateUserRequest): Promise<AdminUser> {
  const answer = await api.patch<unknown>(`/users/${encodeURIComponent(id)}`, body, { alertOnError: false });
  return parseAnswer(adminUserSchema, answer);
}

export function useUpdateUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminUpdateUserRequest) => updateUser(id, body),
    onSuccess: async (user) => {
      queryClient.setQueryData(userQuery(id).queryKey, user);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers.lists() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.me() }),
      ]);
    },
  });
}
