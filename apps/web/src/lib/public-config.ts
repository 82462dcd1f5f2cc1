import { publicClinicSettingsSchema, type PublicClinicSettings } from '@telemedicina/shared/clinic-settings';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { requestClientConfig } from './config-request';
import { queryKeys } from './query-keys';

/** The part of `GET /config` the screens use: the clinic's public settings (null until the server has them). */
export interface PublicConfig {
  clinic: PublicClinicSettings | null;
}

/**
 * Reads the clinic's public settings out of a `GET /config` answer. Only that block is checked (with
 * the shared schema): an answer without it, or with a malformed one, gives `clinic: null` and the
 * screens keep their defaults instead of failing.
 */
export function readPublicConfig(body: unknown): PublicConfig {
  const clinic =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>).clinic : undefined;
  const parsed = publicClinicSettingsSchema.safeParse(clinic);
  return { clinic: parsed.success ? parsed.data : null };
}

/** `GET /config`, quietly (no spinner, no alert: the page works with defaults without it). */
export async function getPublicConfig(): Promise<PublicConfig> {
  return readPublicConfig(await requestClientConfig());
}

export const publicConfigQuery = queryOptions({
  queryKey: queryKeys.publicConfig(),
  queryFn: () => getPublicConfig(),
  staleTime: 5 * 60_000,
  retry: false,
});

/** The public configuration (clinic name, logo, default zone and language, upload limits). */
export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}

/** Asks for the public configuration again, after an administrator changed the clinic's settings. */
export function refreshPublicConfig(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: queryKeys.publicConfig() });
}
