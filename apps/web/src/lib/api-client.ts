import { errorCodes, type ErrorCode } from '@telemedicina/shared/errors';
import { appConfig } from './config';
import { translate } from './i18n';
import { sessionState } from './session-state';
import { uiState, type Alert } from './ui-state';
import { xsrfHeaders } from './xsrf';

/** Codes the client itself produces when there is no server answer to read one from. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'UNEXPECTED_RESPONSE';

/** An error answer of the API (`{ error: { code, message, details? } }`) or a failed request. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status; 0 when no answer arrived. */
    readonly status: number,
    readonly code: ErrorCode | ClientErrorCode | (string & {}),
    message: string,
    readonly details?: unknown,
    /** Field path → message, for 400 VALIDATION_FAILED answers that name fields. */
    readonly fieldErrors: Readonly<Record<string, string>> | null = null,
    /** Seconds to wait before trying again (`Retry-After`, or `details.retryAfterSeconds`), when given. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }

  /**
   * True once the session layer took care of this error (a 401 that ended the session and sent the
   * person to sign in): callers show nothing more for it.
   */
  isHandled = false;
}

/** True for the answers that mean "there is no live session" (401 UNAUTHENTICATED / SESSION_EXPIRED). */
export function isSessionEndError(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.status === 401 &&
    (error.code === 'UNAUTHENTICATED' || error.code === 'SESSION_EXPIRED')
  );
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: string;
  query?: Record<string, QueryValue>;
  /** JSON-serialised unless it is FormData, Blob, URLSearchParams or a string. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Show the global spinner while the request is in flight. Default true. */
  showSpinner?: boolean;
  /** Turn an error answer into a global alert. Default true. Validation errors with fields never alert. */
  alertOnError?: boolean;
  credentials?: RequestCredentials;
  /**
   * `file`: a successful answer is read as a `File` (named from Content-Disposition) instead of
   * JSON or text — downloads such as the record export. Error answers are still read as JSON.
   */
  responseType?: 'json' | 'file';
  /** With `responseType: 'file'`: bytes received so far, and the total when the server gave one. */
  onDownloadProgress?: (receivedBytes: number, totalBytes: number | null) => void;
}

export interface ApiClientDependencies {
  baseUrl: string;
  fetch: typeof fetch;
  beginLoading: () => () => void;
  publishAlert: (alert: Alert) => void;
  translate: (key: ApiErrorMessageKey) => string;
  /** URL relative requests are resolved against (the page's address). */
  documentUrl: () => string;
  /** Cookie string the XSRF token is read from. */
  cookies: () => string;
  /**
   * Called for every 401 UNAUTHENTICATED / SESSION_EXPIRED answer. Returning true means the session
   * layer handled it (signed the person out and sent them to sign in): no alert is published.
   */
  onSessionEnd?: (error: ApiError) => boolean;
  /** Called whenever the server answered (any status but 401): the server counts requests as activity. */
  onServerContact?: () => void;
}

export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * The REST client. Relative paths are joined to the base URL (default same-origin `/api/v1`); the
 * loading flag is on while a request is in flight (the spinner overlay itself waits a moment
 * before showing, so fast requests cause no flicker); unsafe requests to relative URLs carry the
 * XSRF header; error answers become translated alerts (`errors.codes.<CODE>`), except validation
 * errors that name fields — those are thrown for the form to show beside its fields. The client
 * never navigates: a page that cannot live without its data renders the server error page itself.
 */
export function createApiClient(dependencies: ApiClientDependencies) {
  async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const method = (options.method ?? 'GET').toUpperCase();
    const url = joinUrl(dependencies.baseUrl, path) + toQueryString(options.query);
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...xsrfHeaders(method, url, dependencies.cookies()),
      ...options.headers,
    };
    const body = encodeBody(options.body, headers);
    const release = options.showSpinner === false ? noop : dependencies.beginLoading();
    try {
      let response: Response;
      try {
        response = await dependencies.fetch(new URL(url, dependencies.documentUrl()).toString(), {
          method,
          headers,
          body,
          signal: options.signal,
          credentials: options.credentials ?? 'same-origin',
        });
      } catch (cause) {
        if (isAbortError(cause)) {
          throw cause;
        }
        throw new ApiError(0, 'NETWORK_ERROR', cause instanceof Error ? cause.message : 'Network error');
      }
      if (response.status !== 401) {
        dependencies.onServerContact?.();
      }
      if (response.ok && options.responseType === 'file') {
        return (await readFileAnswer(response, options.onDownloadProgress)) as T;
      }
      const payload = await readPayload(response);
      if (response.ok) {
        return payload as T;
      }
      throw toApiError(response.status, payload, response.headers.get('retry-after'));
    } catch (error) {
      if (isSessionEndError(error) && dependencies.onSessionEnd?.(error)) {
        error.isHandled = true;
      }
      if (
        error instanceof ApiError &&
        options.alertOnError !== false &&
        !error.fieldErrors &&
        !error.isHandled
      ) {
        dependencies.publishAlert({
          type: 'error',
          content: escapeHtml(dependencies.translate(apiErrorMessageKey(error))),
        });
      }
      throw error;
    } finally {
      release();
    }
  }

  return {
    request,
    get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'GET' }),
    post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'POST', body }),
    put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'PUT', body }),
    patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'PATCH', body }),
    delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
      request<T>(path, { ...options, method: 'DELETE' }),
  };
}

export type ApiErrorMessageKey = 'errors.network' | 'errors.unexpected' | `errors.codes.${ErrorCode}`;

/** The translation key describing an API error: by its code, then by its status. */
export function apiErrorMessageKey(error: ApiError): ApiErrorMessageKey {
  if (error.code === 'NETWORK_ERROR') {
    return 'errors.network';
  }
  if (isKnownErrorCode(error.code)) {
    return `errors.codes.${error.code}`;
  }
  return error.status >= 500 ? 'errors.codes.INTERNAL_ERROR' : 'errors.unexpected';
}

/**
 * Field path → message from a validation error's `details`. Accepts the shapes a schema validator
 * produces: a list of issues (`[{ path: ['patient', 'email'] | 'patient.email', message }]`, also
 * under `issues`), or an object mapping paths to a message or a list of messages.
 */
export function toFieldErrors(details: unknown): Record<string, string> | null {
  const result: Record<string, string> = {};
  const issues = Array.isArray(details)
    ? details
    : isRecord(details) && Array.isArray(details.issues)
      ? details.issues
      : null;
  if (issues) {
    for (const issue of issues) {
      if (!isRecord(issue) || typeof issue.message !== 'string') {
        continue;
      }
      const path = Array.isArray(issue.path)
        ? issue.path.map(String).join('.')
        : typeof issue.path === 'string'
          ? issue.path
          : '';
      if (path && !(path in result)) {
        result[path] = issue.message;
      }
    }
  } else if (isRecord(details)) {
    const source = isRecord(details.fieldErrors)
      ? details.fieldErrors
      : isRecord(details.fields)
        ? details.fields
        : details;
    for (const [path, value] of Object.entries(source)) {
      if (typeof value === 'string') {
        result[path] = value;
      } else if (Array.isArray(value) && typeof value[0] === 'string') {
        result[path] = value[0];
      }
    }
  }
  return Object.keys(result).length > 0 ? result : null;
}

function toApiError(status: number, payload: unknown, retryAfter: string | null): ApiError {
  const error = isRecord(payload) && isRecord(payload.error) ? payload.error : null;
  if (!error || typeof error.code !== 'string') {
    return new ApiError(
      status,
      status >= 500 ? 'INTERNAL_ERROR' : 'UNEXPECTED_RESPONSE',
      `HTTP ${status}`,
      payload,
      null,
      parseRetryAfter(retryAfter, null),
    );
  }
  const message = typeof error.message === 'string' ? error.message : `HTTP ${status}`;
  const fieldErrors = error.code === 'VALIDATION_FAILED' ? toFieldErrors(error.details) : null;
  return new ApiError(
    status,
    error.code,
    message,
    error.details,
    fieldErrors,
    parseRetryAfter(retryAfter, error.details),
  );
}

/**
 * Seconds to wait from `details.retryAfterSeconds` or the `Retry-After` header (seconds, or an
 * HTTP date). Null when neither says.
 */
export function parseRetryAfter(header: string | null, details: unknown, now = Date.now()): number | null {
  if (isRecord(details) && typeof details.retryAfterSeconds === 'number' && details.retryAfterSeconds >= 0) {
    return Math.ceil(details.retryAfterSeconds);
  }
  if (header === null || header.trim() === '') {
    return null;
  }
  if (/^\d+$/.test(header.trim())) {
    return Number.parseInt(header.trim(), 10);
  }
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

async function readPayload(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) {
    return undefined;
  }
  const text = await response.text();
  if (text === '') {
    return undefined;
  }
  const type = response.headers.get('content-type') ?? '';
  if (/[/+]json\b/i.test(type)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** A download as a File, read chunk by chunk so progress can be shown; a broken connection is a NETWORK_ERROR. */
async function readFileAnswer(
  response: Response,
  onProgress: RequestOptions['onDownloadProgress'],
): Promise<File> {
  const length = Number.parseInt(response.headers.get('content-length') ?? '', 10);
  const total = Number.isFinite(length) && length >= 0 ? length : null;
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const name = fileNameFromDisposition(response.headers.get('content-disposition')) ?? 'download';
  const chunks: BlobPart[] = [];
  try {
    if (response.body === null) {
      chunks.push(await response.arrayBuffer());
    } else {
      const reader = response.body.getReader();
      let received = 0;
      onProgress?.(0, total);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          break;
        }
        chunks.push(value);
        received += value.byteLength;
        onProgress?.(received, total);
      }
    }
  } catch (cause) {
    if (isAbortError(cause)) {
      throw cause;
    }
    throw new ApiError(0, 'NETWORK_ERROR', cause instanceof Error ? cause.message : 'Network error');
  }
  return new File(chunks, name, { type });
}

/** The file name a Content-Disposition header gives (RFC 6266: `filename*` first), without any folder. */
export function fileNameFromDisposition(header: string | null): string | null {
  if (header === null) {
    return null;
  }
  let name: string | null = null;
  const encoded = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header)?.[1];
  if (encoded !== undefined) {
    try {
      name = decodeURIComponent(encoded);
    } catch {
      name = null;
    }
  }
  name ??=
    /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;\s]+)/i.exec(header)?.[1] ?? null;
  const base = name?.split(/[\\/]/).pop()?.trim() ?? '';
  return base === '' ? null : base;
}

function encodeBody(body: unknown, headers: Record<string, string>): BodyInit | undefined {
  if (body === undefined) {
    return undefined;
  }
  if (
    typeof body === 'string' ||
    body instanceof FormData ||
    body instanceof Blob ||
    body instanceof URLSearchParams
  ) {
    return body;
  }
  headers['Content-Type'] = 'application/json';
  return JSON.stringify(body);
}

/** Joins a path to the base URL; absolute URLs and paths already under the base pass unchanged. */
export function joinUrl(baseUrl: string, path: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) {
    return path;
  }
  const base = baseUrl.endsWith('/') ? baseUrl.slice(0, -1) : baseUrl;
  if (path.startsWith(`${base}/`) && base.startsWith('/')) {
    return path;
  }
  return `${base}/${path.replace(/^\/+/, '')}`;
}

function toQueryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) {
    return '';
  }
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') {
      params.set(key, String(value));
    }
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

function isKnownErrorCode(code: string): code is ErrorCode {
  return (errorCodes as readonly string[]).includes(code);
}

function isAbortError(error: unknown): boolean {
  return error instanceof DOMException
    ? error.name === 'AbortError'
    : error instanceof Error && error.name === 'AbortError';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Alerts are HTML; a translated sentence is text, so it is escaped before being published. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function noop() {}

/**
 * Shows a failed request in the global message dialog, the way the client does by default — for
 * callers that asked for `alertOnError: false` to handle some codes themselves. Errors the session
 * layer already handled (the person is on the way to sign in) show nothing.
 */
export function publishApiErrorAlert(error: unknown): void {
  if (error instanceof ApiError && error.isHandled) {
    return;
  }
  const key = error instanceof ApiError ? apiErrorMessageKey(error) : 'errors.unexpected';
  uiState.getState().publishAlert({ type: 'error', content: escapeHtml(translate(key)) });
}

/** The application's client, wired to the shared UI state, the translations and the session. */
export const api = createApiClient({
  baseUrl: appConfig.apiBaseUrl,
  fetch: (input, init) => fetch(input, init),
  beginLoading: () => uiState.getState().beginLoading(),
  publishAlert: (alert) => {
    uiState.getState().publishAlert(alert);
  },
  translate,
  documentUrl: () => window.location.href,
  cookies: () => document.cookie,
  onSessionEnd: (error) => sessionState.getState().handleSessionEnd(error.code),
  onServerContact: () => sessionState.getState().recordServerContact(),
});
