import {
  availabilityExceptionSchema,
  type AvailabilityException,
  type CreateAvailabilityExceptionRequest,
} from '@telemedicina/shared/booking';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryKeys } from '../../../lib/query-keys';

/** `POST /doctors/:id/availability/exceptions`: time off (removes free slots) or extra hours (adds them). */
export async function createAvailabilityException(
  doctorId: string,
  request: CreateAvailabilityExceptionRequest,
): Promise<AvailabilityException> {
  const body = await api.post<unknown>(
    `/doctors/${encodeURIComponent(doctorId)}/availability/exceptions`,
    request,
    { alertOnError: false },
  );
  return parseAnswer(availabilityExceptionSchema, body);
}

export function useCreateAvailabilityException(doctorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CreateAvailabilityExceptionRequest) =>
      createAvailabilityException(doctorId, request),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.availability.exceptions(doctorId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.doctorSlots.all() });
    },
  });
}
