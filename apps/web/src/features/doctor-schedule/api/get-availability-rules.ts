import {
  availabilityRulesResponseSchema,
  type AvailabilityRulesResponse,
} from '@telemedicina/shared/booking';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `GET /doctors/:id/availability/rules`: the weekly ranges and the doctor's zone. */
export async function getAvailabilityRules(
  doctorId: string,
  signal?: AbortSignal,
): Promise<AvailabilityRulesResponse> {
  const body = await api.get<unknown>(`/doctors/${encodeURIComponent(doctorId)}/availability/rules`, {
    signal,
    alertOnError: false,
  });
  return parseAnswer(availabilityRulesResponseSchema, body);
}

export function useAvailabilityRules(doctorId: string, isEnabled = true) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.availability.rules(doctorId),
      queryFn: ({ signal }) => getAvailabilityRules(doctorId, signal),
      enabled: isEnabled,
      retry: false,
    }),
  );
}
