import { xsrfHeaders } from '../../lib/xsrf';

/** Where and how one file is sent (specification §7). */
export interface UploadRequest {
  url: string;
  /** Default POST. */
  method?: string;
  /** Form field holding the file. Default `file`. */
  fieldName?: string;
  /** Extra form fields sent before the file. */
  fields?: Record<string, string | Blob>;
  headers?: Record<string, string>;
  /** Send cookies/credentials on cross-origin requests too. Default false. */
  withCredentials?: boolean;
}

export interface UploadReply {
  status: number;
  /** The reply parsed as JSON when it is JSON (by content type, or because it parses), else the text. */
  body: unknown;
}

export type UploadFailure =
  { kind: 'http'; status: number; body: unknown } | { kind: 'network' } | { kind: 'aborted' };

export class UploadError extends Error {
  override readonly name = 'UploadError';
  constructor(readonly failure: UploadFailure) {
    super(failure.kind === 'http' ? `Upload failed with HTTP ${failure.status}` : `Upload ${failure.kind}`);
  }
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/** Default form field name for the file. */
export const defaultUploadFieldName = 'file';

/**
 * Reads a reply as JSON when it is JSON: by its content type, or — when the server does not say —
 * because the text parses. Anything else is returned as text (undefined when empty).
 */
export function parseUploadReply(text: string, contentType: string | null): unknown {
  if (text === '') {
    return undefined;
  }
  const isDeclaredJson = /[/+]json\b/i.test(contentType ?? '');
  const looksLikeJson = /^\s*[[{"]|^\s*(?:-?\d|true\b|false\b|null\b)/.test(text);
  if (isDeclaredJson || looksLikeJson) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Sends one file as multipart/form-data with XMLHttpRequest (fetch cannot report upload progress).
 * Resolves with the reply on 2xx; rejects with an `UploadError` on other statuses, network failure
 * or `abort()`. Relative URLs with an unsafe method carry the XSRF header, like the API client.
 */
export function sendUpload(
  file: File,
  request: UploadRequest,
  onProgress?: (progress: UploadProgress) => void,
): { promise: Promise<UploadReply>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const method = (request.method ?? 'POST').toUpperCase();
  const promise = new Promise<UploadReply>((resolve, reject) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(request.fields ?? {})) {
      form.append(name, value);
    }
    form.append(request.fieldName ?? defaultUploadFieldName, file, file.name);

    xhr.open(method, request.url, true);
    xhr.withCredentials = request.withCredentials ?? false;
    xhr.setRequestHeader('Accept', 'application/json, text/plain;q=0.9, */*;q=0.8');
    const headers = { ...xsrfHeaders(method, request.url), ...request.headers };
    for (const [name, value] of Object.entries(headers)) {
      xhr.setRequestHeader(name, value);
    }
    xhr.upload.addEventListener('progress', (event) => {
      onProgress?.({ loaded: event.loaded, total: event.lengthComputable ? event.total : file.size });
    });
    xhr.addEventListener('load', () => {
      const body = parseUploadReply(xhr.responseText, xhr.getResponseHeader('content-type'));
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.({ loaded: file.size, total: file.size });
        resolve({ status: xhr.status, body });
      } else {
        reject(new UploadError({ kind: 'http', status: xhr.status, body }));
      }
    });
    xhr.addEventListener('error', () => reject(new UploadError({ kind: 'network' })));
    xhr.addEventListener('abort', () => reject(new UploadError({ kind: 'aborted' })));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
