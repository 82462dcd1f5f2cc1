import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** The account actions an administrator confirms on the user's page. */
export type UserAction = 'disable' | 'enable' | 'unlock' | 'resetMfa';

const actionPaths: Record<UserAction, string> = {
  disable: 'disable',
  enable: 'enable',
  unlock: 'unlock',
  resetMfa: 'mfa/reset',
};

/**
 * `POST /users/:id/disable | enable | unlock | mfa/reset` → 204. Disabling ends the user's sessions
 * at once; a second-factor reset ends them too (409 CANNOT_CHANGE_SELF, LAST_ADMIN).
 */
export async function runUserAction(id: string, action: UserAction): Promise<void> {
  await api.post<unknown>(`/users/${encodeURIComponent(id)}/${actionPaths[action]}`, undefined, {
    alertOnError: false,
  });
}

export function useUserAction(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: UserAction) => runUserAction(id, action),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.adminUsers.all() }),
  });
}
