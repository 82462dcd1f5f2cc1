import type { ChangePasswordRequest } from '@telemedicina/shared/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/**
 * `POST /me/password` → 204; the server gives this browser a new session and ends the others.
 * 400 PASSWORD_INCORRECT, 422 PASSWORD_TOO_WEAK are shown beside the fields.
 */
export async function changePassword(body: ChangePasswordRequest): Promise<void> {
  await api.post('/me/password', body, { alertOnError: false });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.mySessions() }),
  });
}
