import { slotsResponseSchema, type SlotsResponse } from '@telemedicina/shared/booking';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client';
import { parseAnswer } from '../../lib/parse-answer';
import { queryKeys } from '../../lib/query-keys';

export interface SlotsRequest {
  doctorId: string;
  from: string;
  to: string;
  tz: string;
}

/** `GET /doctors/:id/slots?from&to&tz` → the free slots of the window, labelled in `tz`. */
export async function getSlots(request: SlotsRequest, signal?: AbortSignal): Promise<SlotsResponse> {
  const { doctorId, ...query } = request;
  const body = await api.get<unknown>(`/doctors/${encodeURIComponent(doctorId)}/slots`, {
    query,
    signal,
    alertOnError: false,
    showSpinner: false,
  });
  return parseAnswer(slotsResponseSchema, body);
}

export const slotsQuery = (request: SlotsRequest) =>
  queryOptions({
    queryKey: queryKeys.doctorSlots.window(request),
    queryFn: ({ signal }) => getSlots(request, signal),
    retry: false,
    placeholderData: keepPreviousData,
  });

export function useSlots(request: SlotsRequest) {
  return useQuery(slotsQuery(request));
}
