import type { HealthResponse } from '@telemedicina/shared/api';
import { api } from './api-client';

// Apart from `server-status.ts` (query cache): the signed-out start page shows the status before
// the query cache is downloaded.

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
