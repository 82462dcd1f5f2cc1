import { chartNoteListSchema, type ChartNoteList } from '@telemedicina/shared/notes';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /patients/:patientId/notes`: the chart's notes, newest visit first (patients: signed only). */
export async function getChartNotes(patientId: string, signal?: AbortSignal): Promise<ChartNoteList> {
  const body = await api.get<unknown>(`/patients/${encodeURIComponent(patientId)}/notes`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(chartNoteListSchema, body);
}

export function useChartNotes(patientId: string) {
  return useQuery(
    queryOptions({
      // Under the patient's key, so whatever refreshes the chart refreshes its notes too.
      queryKey: queryKeys.patients.notes(patientId),
      queryFn: ({ signal }) => getChartNotes(patientId, signal),
      retry: false,
    }),
  );
}
