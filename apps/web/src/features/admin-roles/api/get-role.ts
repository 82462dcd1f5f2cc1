import { roleSchema, type Role } from '@telemedicina/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { rolesQueryKey } from './get-roles';
import { parseAnswer } from '../../../lib/parse-answer';

/** `GET /roles/:id` → one role with its grants (404 NOT_FOUND). */
export async function getRole(id: string, signal?: AbortSignal): Promise<Role> {
  const body = await api.get<unknown>(`/roles/${encodeURIComponent(id)}`, { signal, alertOnError: false });
  return parseAnswer(roleSchema, body);
}

export const roleQuery = (id: string) =>
  queryOptions({
    queryKey: [...rolesQueryKey, 'detail', id],
    queryFn: ({ signal }) => getRole(id, signal),
    retry: false,
  });

export function useRole(id: string) {
  return useQuery(roleQuery(id));
}
