import {
  availabilityRulesResponseSchema,
  type AvailabilityRulesResponse,
  type ReplaceAvailabilityRulesRequest,
} from '@telemedicina/shared/booking';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `PUT /doctors/:id/availability/rules`: the whole weekly schedule (400 with `rules.<i>.*` paths). */
export async function replaceAvailabilityRules(
  doctorId: string,
  request: ReplaceAvailabilityRulesRequest,
): Promise<AvailabilityRulesResponse> {
  const body = await api.put<unknown>(
    `/doctors/${encodeURIComponent(doctorId)}/availability/rules`,
    request,
    { alertOnError: false },
  );
  return parseAnswer(availabilityRulesResponseSchema, body);
}

export function useReplaceAvailabilityRules(doctorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: ReplaceAvailabilityRulesRequest) => replaceAvailabilityRules(doctorId, request),
    onSuccess: (saved) => {
      queryClient.setQueryData(queryKeys.availability.rules(doctorId), saved);
      void queryClient.invalidateQueries({ queryKey: queryKeys.doctorSlots.all() });
    },
  });
}
