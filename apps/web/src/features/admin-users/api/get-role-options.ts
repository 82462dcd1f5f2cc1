import { rolePageSchema, type Role } from '@telemedicina/shared/admin';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /roles` (first 100 by name): the roles to filter by, invite with and assign. */
export async function getRoleOptions(signal?: AbortSignal): Promise<Role[]> {
  const body = await api.get<unknown>('/roles', {
    query: { page: 1, pageSize: 100, sort: 'name', order: 'asc' },
    signal,
    alertOnError: false,
  });
  return parseAnswer(rolePageSchema, body).data;
}

export const roleOptionsQuery = queryOptions({
  queryKey: queryKeys.adminUsers.roleOptions(),
  queryFn: ({ signal }) => getRoleOptions(signal),
  retry: false,
  staleTime: 60_000,
});

export function useRoleOptions() {
  return useQuery(roleOptionsQuery);
}
