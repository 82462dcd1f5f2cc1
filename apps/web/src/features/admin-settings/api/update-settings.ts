import type { UpdateClinicSettingsRequest } from '@telemedicina/shared/admin';
import type { ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { refreshPublicConfig } from '../../../lib/public-config';
import { parseSettings } from './get-settings';
import { queryKeys } from '../../../lib/query-keys';

/** `PATCH /settings` with one section → the whole settings document as saved. */
export async function updateSettings(body: UpdateClinicSettingsRequest): Promise<ClinicSettings> {
  return parseSettings(await api.patch<unknown>('/settings', body, { alertOnError: false }));
}

/**
 * Saves one section; the cached settings take the server's answer and the public configuration
 * (clinic name in the header, upload limits) is asked for again.
 */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: async (settings) => {
      queryClient.setQueryData(queryKeys.clinicSettings.all(), settings);
      await refreshPublicConfig(queryClient);
    },
  });
}
