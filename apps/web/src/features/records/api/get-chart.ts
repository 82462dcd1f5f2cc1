import { chartSchema, type Chart } from '@telemedicina/shared/records';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /patients/:patientId/chart[?include=removed]` → the chart (404 without a relationship). */
export async function getChart(
  patientId: string,
  includeRemoved: boolean,
  signal?: AbortSignal,
): Promise<Chart> {
  const body = await api.get<unknown>(`/patients/${encodeURIComponent(patientId)}/chart`, {
    query: { include: includeRemoved ? 'removed' : undefined },
    signal,
    alertOnError: false,
  });
  return parseAnswer(chartSchema, body);
}

export const chartQuery = (patientId: string, includeRemoved: boolean) =>
  queryOptions({
    queryKey: queryKeys.patients.chart(patientId, includeRemoved),
    queryFn: ({ signal }) => getChart(patientId, includeRemoved, signal),
    retry: false,
  });

export function useChart(patientId: string, includeRemoved: boolean) {
  return useQuery(chartQuery(patientId, includeRemoved));
}
