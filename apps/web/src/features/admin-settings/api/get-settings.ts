import { clinicSettingsSchema, type ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { parseAnswer } from '../../../lib/parse-answer';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** Checks an answer that should be the whole settings document. */
export function parseSettings(body: unknown): ClinicSettings {
  return parseAnswer(clinicSettingsSchema, body);
}

/** `GET /settings` → every section of the clinic's settings. */
export async function getSettings(signal?: AbortSignal): Promise<ClinicSettings> {
  return parseSettings(await api.get<unknown>('/settings', { signal, alertOnError: false }));
}

export const settingsQuery = queryOptions({
  queryKey: queryKeys.clinicSettings.all(),
  queryFn: ({ signal }) => getSettings(signal),
  retry: false,
});

export function useSettings() {
  return useQuery(settingsQuery);
}
