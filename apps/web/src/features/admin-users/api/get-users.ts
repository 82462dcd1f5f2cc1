import { adminUserPageSchema, type AdminUserListQuery, type AdminUserPage } from '@telemedicina/shared/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { appConfig } from '../../../lib/config';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** What the users list asks for (the list's URL state). */
export type UsersRequest = Omit<AdminUserListQuery, 'q'> & { q: string | undefined };

/** `GET /users?page&pageSize&q&role&status&sort&order` → one page of accounts. */
export async function getUsers(request: UsersRequest, signal?: AbortSignal): Promise<AdminUserPage> {
  const body = await api.get<unknown>('/users', { query: { ...request }, signal, alertOnError: false });
  return parseAnswer(adminUserPageSchema, body);
}

export const usersQuery = (request: UsersRequest) =>
  queryOptions({
    queryKey: queryKeys.adminUsers.list(request),
    queryFn: ({ signal }) => getUsers(request, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useUsers(request: UsersRequest) {
  return useQuery(usersQuery(request));
}

/**
 * Address of `GET /users/export.csv` for the list's current search, filters and sort (a plain link:
 * the browser downloads it with the session cookie).
 */
export function usersExportUrl(exportQuery: string): string {
  return `${appConfig.apiBaseUrl}/users/export.csv${exportQuery ? `?${exportQuery}` : ''}`;
}
