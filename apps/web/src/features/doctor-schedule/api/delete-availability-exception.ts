import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { availabilityExceptionsKey } from './get-availability-exceptions';

/** `DELETE /doctors/:id/availability/exceptions/:exceptionId` → 204. */
export async function deleteAvailabilityException(doctorId: string, exceptionId: string): Promise<void> {
  await api.delete<unknown>(
    `/doctors/${encodeURIComponent(doctorId)}/availability/exceptions/${encodeURIComponent(exceptionId)}`,
    { alertOnError: false },
  );
}

export function useDeleteAvailabilityException(doctorId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (exceptionId: string) => deleteAvailabilityException(doctorId, exceptionId),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: availabilityExceptionsKey(doctorId) });
      void queryClient.invalidateQueries({ queryKey: ['doctor-slots'] });
    },
  });
}
