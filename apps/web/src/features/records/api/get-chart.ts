import { chartSchema, type Chart } from '@telemedicina/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';

/** Every query about one patient starts with this key (prescriptions invalidate it too). */
export const patientQueryKey = (patientId: string) => ['patients', patientId] as const;

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
    queryKey: [...patientQueryKey(patientId), 'chart', includeRemoved],
    queryFn: ({ signal }) => getChart(patientId, includeRemoved, signal),
    retry: false,
  });

export function useChart(patientId: string, includeRemoved: boolean) {
  return useQuery(chartQuery(patientId, includeRemoved));
}
