/**
 * Stable error codes shared by server and client. The server answers
 * `{ error: { code, message, details? } }`; the client maps `code` to a
 * translated message under `errors.codes.<code>`.
 */
export const errorCodes = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'XSRF_TOKEN_INVALID',
  'NOT_FOUND',
  'ROUTE_NOT_FOUND',
  'CONFLICT',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNPROCESSABLE',
  'RATE_LIMITED',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
  // Identity and access
  'INVALID_CREDENTIALS',
  'MFA_REQUIRED',
  'MFA_INVALID',
  'MFA_ENROLLMENT_REQUIRED',
  'MFA_REQUIRED_BY_POLICY',
  'ACCOUNT_LOCKED',
  'ACCOUNT_DISABLED',
  'EMAIL_NOT_VERIFIED',
  'TOKEN_INVALID',
  'PASSWORD_TOO_WEAK',
  'PASSWORD_INCORRECT',
  'SESSION_EXPIRED',
  'LAST_ADMIN',
  // Administration
  'ROLE_IN_USE',
  'SPECIALTY_IN_USE',
  'SYSTEM_ROLE_LOCKED',
  'CANNOT_CHANGE_SELF',
  'ALREADY_EXISTS',
  'CLINICAL_ATTACHMENT_WITHHELD',
  // Booking
  'SLOT_TAKEN',
  'CANCELLATION_WINDOW_PASSED',
  'INVALID_TRANSITION',
  'NOT_ACCEPTING_NEW_PATIENTS',
  // Video visits
  'VISIT_NOT_OPEN',
  'VISIT_NOT_ADMITTED',
  'VISIT_FULL',
  'VISIT_ENDED',
  'GUEST_LINK_EXPIRED',
  'GUEST_LINK_USED',
  // Clinical record
  'NOTE_SIGNED',
  'NOTE_NOT_SIGNED',
  'NOTE_VERSION_CONFLICT',
  'IMAGE_TOO_LARGE',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/**
 * The HTTP status each code answers with: one place, and the compiler checks
 * that every code has exactly one. The server's `appError(code, …)` reads it;
 * a call site that answers another status for the same code says so explicitly.
 */
export const errorStatus = {
  VALIDATION_FAILED: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  XSRF_TOKEN_INVALID: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
  INVALID_CREDENTIALS: 401,
  MFA_REQUIRED: 401,
  MFA_INVALID: 401,
  MFA_ENROLLMENT_REQUIRED: 403,
  MFA_REQUIRED_BY_POLICY: 409,
  ACCOUNT_LOCKED: 423,
  ACCOUNT_DISABLED: 403,
  EMAIL_NOT_VERIFIED: 403,
  TOKEN_INVALID: 400,
  PASSWORD_TOO_WEAK: 422,
  PASSWORD_INCORRECT: 400,
  SESSION_EXPIRED: 401,
  LAST_ADMIN: 409,
  ROLE_IN_USE: 409,
  SPECIALTY_IN_USE: 409,
  SYSTEM_ROLE_LOCKED: 409,
  CANNOT_CHANGE_SELF: 409,
  ALREADY_EXISTS: 409,
  CLINICAL_ATTACHMENT_WITHHELD: 403,
  SLOT_TAKEN: 409,
  CANCELLATION_WINDOW_PASSED: 409,
  INVALID_TRANSITION: 409,
  NOT_ACCEPTING_NEW_PATIENTS: 409,
  VISIT_NOT_OPEN: 409,
  VISIT_NOT_ADMITTED: 409,
  VISIT_FULL: 409,
  VISIT_ENDED: 409,
  GUEST_LINK_EXPIRED: 410,
  GUEST_LINK_USED: 410,
  NOTE_SIGNED: 409,
  NOTE_NOT_SIGNED: 409,
  NOTE_VERSION_CONFLICT: 409,
  IMAGE_TOO_LARGE: 422,
} as const satisfies Record<ErrorCode, number>;

/** The status a code answers with (see {@link errorStatus}). */
export type ErrorStatus = (typeof errorStatus)[ErrorCode];
