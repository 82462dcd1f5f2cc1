import { roleSchema, type Role } from '@telemedicina/shared/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /roles/:id` → one role with its grants (404 NOT_FOUND). */
export async function getRole(id: string, signal?: AbortSignal): Promise<Role> {
  const body = await api.get<unknown>(`/roles/${encodeURIComponent(id)}`, { signal, alertOnError: false });
  return parseAnswer(roleSchema, body);
}

export const roleQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.adminRoles.detail(id),
    queryFn: ({ signal }) => getRole(id, signal),
    retry: false,
  });

export function useRole(id: string) {
  return useQuery(roleQuery(id));
}
