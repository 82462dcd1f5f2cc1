import { slotsResponseSchema, type Slot } from '@telemedicina/shared/booking';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

export interface FreeSlotsRequest {
  doctorId: string;
  from: string;
  to: string;
}

/** `GET /doctors/:id/slots?from&to`: the free times shaded behind the agenda (quietly: it is decoration). */
export async function getFreeSlots(request: FreeSlotsRequest, signal?: AbortSignal): Promise<Slot[]> {
  const { doctorId, ...query } = request;
  const body = await api.get<unknown>(`/doctors/${encodeURIComponent(doctorId)}/slots`, {
    query,
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(slotsResponseSchema, body).slots;
}

export function useFreeSlots(request: FreeSlotsRequest | null) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.doctorSlots.agenda(request),
      queryFn: ({ signal }) => getFreeSlots(request!, signal),
      enabled: request !== null,
      retry: false,
      placeholderData: keepPreviousData,
    }),
  );
}
