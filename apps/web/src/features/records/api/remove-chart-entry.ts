import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

export type ChartListKind = 'allergies' | 'conditions' | 'medications';

/** `DELETE /patients/:patientId/{allergies|conditions|medications}/:entryId` → 204 (kept as history). */
export async function removeChartEntry(
  patientId: string,
  kind: ChartListKind,
  entryId: string,
): Promise<void> {
  await api.delete<unknown>(
    `/patients/${encodeURIComponent(patientId)}/${kind}/${encodeURIComponent(entryId)}`,
    { alertOnError: false },
  );
}

export function useRemoveChartEntry(patientId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, entryId }: { kind: ChartListKind; entryId: string }) =>
      removeChartEntry(patientId, kind, entryId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.patients.one(patientId) }),
  });
}
