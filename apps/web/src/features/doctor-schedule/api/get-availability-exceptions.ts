import { availabilityExceptionListSchema, type AvailabilityException } from '@telemedicina/shared/booking';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /doctors/:id/availability/exceptions?from&to`: time off and extra hours overlapping [from, to). */
export async function getAvailabilityExceptions(
  doctorId: string,
  window: { from?: string; to?: string },
  signal?: AbortSignal,
): Promise<AvailabilityException[]> {
  const body = await api.get<unknown>(`/doctors/${encodeURIComponent(doctorId)}/availability/exceptions`, {
    query: window,
    signal,
    alertOnError: false,
  });
  return parseAnswer(availabilityExceptionListSchema, body).data;
}

export function useAvailabilityExceptions(doctorId: string, window: { from?: string; to?: string }) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.availability.exceptionsIn(doctorId, window),
      queryFn: ({ signal }) => getAvailabilityExceptions(doctorId, window, signal),
      retry: false,
      placeholderData: keepPreviousData,
    }),
  );
}
