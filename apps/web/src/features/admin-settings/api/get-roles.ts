import { rolePageSchema, type Role } from '@telemedicina/shared/admin';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /roles` (first 100, by name): the roles a second factor can be required of. */
export async function getRoleOptions(signal?: AbortSignal): Promise<Role[]> {
  const body = await api.get<unknown>('/roles', {
    query: { page: 1, pageSize: 100, sort: 'name', order: 'asc' },
    signal,
    alertOnError: false,
  });
  return parseAnswer(rolePageSchema, body).data;
}

export const roleOptionsQuery = queryOptions({
  queryKey: queryKeys.clinicSettings.roles(),
  queryFn: ({ signal }) => getRoleOptions(signal),
  retry: false,
});

export function useRoleOptions() {
  return useQuery(roleOptionsQuery);
}
