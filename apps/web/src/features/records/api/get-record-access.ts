import { recordAccessPageSchema, type RecordAccessPage } from '@telemedicina/shared/records';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

export interface RecordAccessRequest {
  page: number;
  pageSize: number;
}

/** `GET /me/record-access?page&pageSize` → who viewed or changed my record, newest first. */
export async function getRecordAccess(
  request: RecordAccessRequest,
  signal?: AbortSignal,
): Promise<RecordAccessPage> {
  const body = await api.get<unknown>('/me/record-access', {
    query: { ...request },
    signal,
    alertOnError: false,
  });
  return parseAnswer(recordAccessPageSchema, body);
}

export const recordAccessQuery = (request: RecordAccessRequest) =>
  queryOptions({
    queryKey: queryKeys.recordAccess(request),
    queryFn: ({ signal }) => getRecordAccess(request, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useRecordAccess(request: RecordAccessRequest) {
  return useQuery(recordAccessQuery(request));
}
