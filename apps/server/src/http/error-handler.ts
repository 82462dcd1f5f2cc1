import type { ErrorResponse, ValidationIssue, ValidationLocation } from '@telemedicina/shared/api';
import type { ErrorCode } from '@telemedicina/shared/errors';
import { validationLocations } from '@telemedicina/shared/api';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { isAppError } from '../lib/app-error.js';
import { isDatabaseUnavailable, isInvalidInputValue } from '../lib/database-errors.js';

const codeByStatus: Partial<Record<number, ErrorCode>> = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
};

const messageByCode: Partial<Record<ErrorCode, string>> = {
  VALIDATION_FAILED: 'The request is not valid.',
  UNAUTHENTICATED: 'Sign in to continue.',
  FORBIDDEN: 'You are not allowed to do this.',
  NOT_FOUND: 'Not found.',
  CONFLICT: 'The request conflicts with the current state.',
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'This content type is not accepted.',
  UNPROCESSABLE: 'The request cannot be processed.',
  RATE_LIMITED: 'Too many requests. Try again later.',
  SERVICE_UNAVAILABLE: 'The database is not reachable. Try again shortly.',
  INTERNAL_ERROR: 'Something went wrong on the server.',
};

interface ErrorAnswer {
  statusCode: number;
  body: ErrorResponse;
}

/**
 * Maps any error to the project's error shape and status. Expected errors
 * ({@link AppError}, validation, fastify's 4xx) keep their meaning; a database
 * that cannot be reached is a 503 SERVICE_UNAVAILABLE; everything else is a 500.
 * Neither message ever reveals internals.
 */
export function toErrorAnswer(error: FastifyError | Error): ErrorAnswer {
  if (isAppError(error)) {
    return answer(error.statusCode, error.code, error.message, error.details);
  }
  const fastifyError = error as FastifyError;
  if (Array.isArray(fastifyError.validation) && fastifyError.validation.length > 0) {
    const location = toLocation(fastifyError.validationContext);
    const issues: ValidationIssue[] = fastifyError.validation.map((issue) => ({
      location,
      path: toFieldPath(issue.instancePath),
      code: issue.keyword,
      message: issue.message ?? 'Invalid value',
    }));
    return answer(400, 'VALIDATION_FAILED', messageByCode.VALIDATION_FAILED!, { issues });
  }
  const statusCode = fastifyError.statusCode ?? 500;
  if (statusCode >= 400 && statusCode < 500) {
    const code = codeByStatus[statusCode] ?? 'VALIDATION_FAILED';
    // Fastify's own 4xx messages ("Body cannot be empty…") describe the request, not the server.
    const isFastifyOwn = typeof fastifyError.code === 'string' && fastifyError.code.startsWith('FST_');
    const message = isFastifyOwn ? fastifyError.message : (messageByCode[code] ?? fastifyError.message);
    return answer(statusCode, code, message);
  }
  // A value the database cannot take (a NUL character in text…) came from the request.
  if (isInvalidInputValue(error)) {
    return answer(400, 'VALIDATION_FAILED', messageByCode.VALIDATION_FAILED!);
  }
  // A multipart body the parser cannot read (no or an over-long boundary, cut short).
  if (isMalformedMultipart(error)) {
    return answer(400, 'VALIDATION_FAILED', 'The multipart/form-data body is malformed.');
  }
  // An outage, not a bug: the same request works again once the pool has reconnected.
  if (isDatabaseUnavailable(error)) {
    return answer(503, 'SERVICE_UNAVAILABLE', messageByCode.SERVICE_UNAVAILABLE!);
  }
  return answer(500, 'INTERNAL_ERROR', messageByCode.INTERNAL_ERROR!);
}

/** Fastify error handler: logs server faults with the request id, answers the error shape. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const { statusCode, body } = toErrorAnswer(error);
  if (statusCode >= 500) {
    request.log.error({ err: error }, 'request failed');
  } else {
    request.log.info({ code: body.error.code, statusCode }, body.error.message);
  }
  void reply.status(statusCode).type('application/json; charset=utf-8').send(body);
}

/** Answer for a path no route serves, under /api and wherever HTML makes no sense. */
export function routeNotFound(request: FastifyRequest): ErrorResponse {
  const path = request.url.split('?')[0] ?? request.url;
  return {
    error: { code: 'ROUTE_NOT_FOUND', message: `No route for ${request.method} ${path}.` },
  };
}

/** The multipart parser's (busboy's) errors carry no status; their messages are all it gives. */
const malformedMultipartMessages = [
  'Multipart: Boundary not found',
  'Unexpected end of multipart data',
  'The needle cannot',
  'Unsupported Content-Type.',
];

function isMalformedMultipart(error: Error): boolean {
  return (
    malformedMultipartMessages.some((message) => error.message.startsWith(message)) ||
    error.message.endsWith('terminated early due to unexpected end of multipart data')
  );
}

function answer(statusCode: number, code: ErrorCode, message: string, details?: unknown): ErrorAnswer {
  return {
    statusCode,
    body: { error: details === undefined ? { code, message } : { code, message, details } },
  };
}

function toLocation(context: string | undefined): ValidationLocation {
  return (validationLocations as readonly string[]).includes(context ?? '')
    ? (context as ValidationLocation)
    : 'body';
}

/** `/address/city` (JSON pointer) → `address.city`, the dotted path form fields use. */
function toFieldPath(instancePath: string | undefined): string {
  return (instancePath ?? '')
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}
