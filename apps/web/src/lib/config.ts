import { apiBasePath } from '@telemedicina/shared/api';

/**
 * Build-time configuration. `VITE_API_BASE_URL` points the client at another API origin; by
 * default the API is served by the same origin under `/api/v1` (specification §7).
 */
export const appConfig = {
  apiBaseUrl: stripTrailingSlash(import.meta.env.VITE_API_BASE_URL ?? apiBasePath),
  /** Specification §9: "the environment is flagged as production" — true in production builds. */
  isProduction: import.meta.env.PROD,
} as const;

function stripTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}
