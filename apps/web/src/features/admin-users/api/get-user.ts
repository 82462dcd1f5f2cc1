import { adminUserSchema, type AdminUser } from '@telemedicina/shared/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /users/:id` → one account with roles, lockout and last sign-in (404 NOT_FOUND). */
export async function getUser(id: string, signal?: AbortSignal): Promise<AdminUser> {
  const body = await api.get<unknown>(`/users/${encodeURIComponent(id)}`, { signal, alertOnError: false });
  return parseAnswer(adminUserSchema, body);
}

export const userQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.adminUsers.detail(id),
    queryFn: ({ signal }) => getUser(id, signal),
    retry: false,
  });

export function useUser(id: string) {
  return useQuery(userQuery(id));
}
