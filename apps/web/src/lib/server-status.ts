import type { HealthResponse } from '@telemedicina/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * Whether an answer has the fields the status displays. A small hand check instead of the shared
 * zod schema keeps zod out of the start page's download; the server validates its own answer.
 */
export function isHealthResponse(value: unknown): value is HealthResponse {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const health = value as Partial<Record<keyof HealthResponse, unknown>>;
  const database = health.database as Partial<Record<'kind' | 'roundTripMs', unknown>> | null | undefined;
  return (
    health.status === 'ok' &&
    typeof health.version === 'string' &&
    typeof health.uptimeSeconds === 'number' &&
    typeof database === 'object' &&
    database !== null &&
    (database.kind === 'pglite' || database.kind === 'postgres') &&
    typeof database.roundTripMs === 'number'
  );
}

/** `GET /api/v1/health`: version, uptime and a real database round trip. */
export async function getServerHealth(signal?: AbortSignal): Promise<HealthResponse> {
  // A background check: no spinner, and no alert when the server cannot be reached (the page says so).
  const body = await api.get<unknown>('/health', { signal, showSpinner: false, alertOnError: false });
  if (!isHealthResponse(body)) {
    throw new Error('Unexpected health answer');
  }
  return body;
}

export const serverHealthQuery = queryOptions({
  queryKey: ['server-health'],
  queryFn: ({ signal }) => getServerHealth(signal),
  retry: false,
  staleTime: 30_000,
});

export function useServerHealth() {
  return useQuery(serverHealthQuery);
}
