import { rolePageSchema, type RoleListQuery, type RolePage } from '@telemedicina/shared/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** What the roles list asks for (the list's URL state). */
export type RolesRequest = Omit<RoleListQuery, 'q'> & { q: string | undefined };

/** `GET /roles?page&pageSize&q&sort&order` → one page of roles with grants and user counts. */
export async function getRoles(request: RolesRequest, signal?: AbortSignal): Promise<RolePage> {
  const body = await api.get<unknown>('/roles', { query: { ...request }, signal, alertOnError: false });
  return parseAnswer(rolePageSchema, body);
}

export const rolesQuery = (request: RolesRequest) =>
  queryOptions({
    queryKey: queryKeys.adminRoles.list(request),
    queryFn: ({ signal }) => getRoles(request, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useRoles(request: RolesRequest) {
  return useQuery(rolesQuery(request));
}
