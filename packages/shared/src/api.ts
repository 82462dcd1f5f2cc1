import { z } from 'zod';
import { publicClinicSettingsSchema } from './clinic-settings.js';
import { errorCodes } from './errors.js';
import { supportedLanguages } from './i18n.js';
import { realtimePath } from './realtime.js';

/** Every REST route lives under this prefix; the client's default base URL. */
export const apiBasePath = '/api/v1';

/**
 * Cookie the web app keeps with what the signed-in start page (`/admin`) last showed in this
 * browser: `dashboard` (a clinic administrator's) or `home` (everyone else's). The server sends
 * `/admin` with the home page's frame drawn in advance unless it says `dashboard` — a guess for the
 * first paint only; the session decides what the page shows.
 */
export const startPageCookieName = 'tm_start';
export const startPages = ['home', 'dashboard'] as const;
export type StartPage = (typeof startPages)[number];

/** Where a request value failed validation, so the client can map issues to form fields. */
export const validationLocations = ['body', 'querystring', 'params', 'headers'] as const;
export type ValidationLocation = (typeof validationLocations)[number];

/**
 * One validation problem. `path` is the dotted field path inside the location
 * (`address.city`, `items.0.name`; empty for the whole value), the shape
 * react-hook-form's `setError` takes.
 */
export const validationIssueSchema = z.object({
  location: z.enum(validationLocations),
  path: z.string(),
  code: z.string(),
  message: z.string(),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/** `details` of a `VALIDATION_FAILED` error. */
export const validationErrorDetailsSchema = z.object({ issues: z.array(validationIssueSchema) });
export type ValidationErrorDetails = z.infer<typeof validationErrorDetailsSchema>;

/** The one error shape every API failure answers with. */
export const errorResponseSchema = z.object({
  error: z.object({
    code: z.enum(errorCodes),
    message: z.string(),
    details: z.unknown().optional(),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const databaseKinds = ['pglite', 'postgres'] as const;
export type DatabaseKind = (typeof databaseKinds)[number];

/**
 * `GET /api/v1/health`: answered 200 only after a real database round trip.
 * The server reuses a successful round trip for up to a second (health is
 * public; the embedded database has one connection); `checkedAt` says when
 * it completed.
 */
export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  uptimeSeconds: z.number().nonnegative(),
  database: z.object({
    kind: z.enum(databaseKinds),
    roundTripMs: z.number().nonnegative(),
    checkedAt: z.iso.datetime(),
  }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;

/**
 * `GET /api/v1/config`: what the browser needs before it can talk to the
 * server. `realtime.port` is the separate real-time port on the same host, or
 * null when Socket.IO is only served on the page's own origin.
 */
export const clientConfigResponseSchema = z.object({
  version: z.string(),
  realtime: z.object({
    port: z.number().int().min(1).max(65535).nullable(),
    path: z.literal(realtimePath),
  }),
  languages: z.array(z.enum(supportedLanguages)),
  defaultLanguage: z.enum(supportedLanguages),
  /** The clinic's public settings: name, logo, zone, language, upload limits. */
  clinic: publicClinicSettingsSchema,
});
export type ClientConfigResponse = z.infer<typeof clientConfigResponseSchema>;

/** Name of the cookie the server sets and of the header unsafe requests must copy it into. */
export const xsrfCookieName = 'XSRF-TOKEN';
export const xsrfHeaderName = 'X-XSRF-TOKEN';
/** Header carrying the request id; sent back on every response and accepted from callers. */
export const requestIdHeaderName = 'X-Request-Id';
