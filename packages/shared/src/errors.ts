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
