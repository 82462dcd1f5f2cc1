import type { ErrorCode } from '@telemedicina/shared';

/**
 * An expected failure with a stable code and the HTTP status it answers with.
 * Services throw it; the error handler turns it into `{ error: { code, message, details } }`.
 * The message is shown to API callers, so it never contains internals.
 */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }
}

/** True for errors thrown on purpose with a code; anything else is a bug or an outage. */
export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
