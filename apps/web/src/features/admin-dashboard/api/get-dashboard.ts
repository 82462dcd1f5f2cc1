import { dashboardResponseSchema, type DashboardResponse } from '@telemedicina/shared/admin';
import { parseAnswer } from '../../../lib/parse-answer';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export interface DashboardRange {
  /** Inclusive `YYYY-MM-DD` dates in the clinic's time zone. */
  from: string;
  to: string;
}

/** `GET /dashboard?from&to` → counts and per-day series computed by the server. */
export async function getDashboard(
  { from, to }: DashboardRange,
  signal?: AbortSignal,
): Promise<DashboardResponse> {
  const body = await api.get<unknown>('/dashboard', { query: { from, to }, signal, alertOnError: false });
  return parseAnswer(dashboardResponseSchema, body);
}

export const dashboardQuery = (range: DashboardRange) =>
  queryOptions({
    queryKey: queryKeys.dashboard(range.from, range.to),
    queryFn: ({ signal }) => getDashboard(range, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useDashboard(range: DashboardRange) {
  return useQuery(dashboardQuery(range));
}
