import type { ValidationIssue } from '@telemedicina/shared/api';
import type { ErrorCode } from '@telemedicina/shared/errors';
import { errorStatus } from '@telemedicina/shared/errors';

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

/**
 * The usual way to fail: the status is the code's own (`errorStatus` in the shared catalogue).
 * `new AppError(status, …)` is left for the few places that answer a code with another status.
 */
export function appError(
  code: ErrorCode,
  message: string,
  details?: unknown,
  options?: { cause?: unknown },
): AppError {
  return new AppError(errorStatus[code], code, message, details, options);
}

/** 400 VALIDATION_FAILED with the issues a caller can show next to its fields. */
export function validationError(issues: ValidationIssue[]): AppError {
  return appError('VALIDATION_FAILED', 'The request is not valid.', { issues });
}

/** 400 VALIDATION_FAILED for one field of the body. */
export function invalidField(path: string, message: string, code = 'custom'): AppError {
  return validationError([{ location: 'body', path, code, message }]);
}
