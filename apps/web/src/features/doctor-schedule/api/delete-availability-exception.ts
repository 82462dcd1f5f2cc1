import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

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
      void queryClient.invalidateQueries({ queryKey: queryKeys.availability.exceptions(doctorId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.doctorSlots.all() });
    },
  });
}
