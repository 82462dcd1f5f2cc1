import { z } from 'zod';
import { languageSchema, roleSummarySchema, timeZoneSchema } from './common.js';
import { displayText } from './display-text.js';
import { passwordMaxLength } from './password-policy.js';

/**
 * Contracts of the authentication area and of `GET /api/v1/me`. The same
 * schemas validate the forms in the browser and the requests on the server.
 * Messages are translation keys (`validation.*`), never prose.
 */

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, { message: 'validation.email' })
  .pipe(z.email({ message: 'validation.email' }));

/** Passwords are checked for strength by `checkPassword`; the schema only bounds them. */
export const passwordSchema = z
  .string()
  .min(1, { message: 'validation.required' })
  .max(passwordMaxLength, { message: 'validation.passwordTooLong' });

/** A person's name (registration, profile, administrators' edits, invitations, the chart). */
export const personNameSchema = displayText(
  z
    .string()
    .trim()
    .min(2, { message: 'validation.nameTooShort' })
    .max(120, { message: 'validation.nameTooLong' }),
);
export const phoneSchema = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{6,20}$/u, { message: 'validation.phone' });
export const dateOfBirthSchema = z.iso
  .date({ message: 'validation.date' })
  .refine((value) => value >= '1900-01-01' && value <= new Date().toISOString().slice(0, 10), {
    message: 'validation.dateOfBirth',
  });
export const totpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/u, { message: 'validation.totpCode' });
export const recoveryCodeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9]{4,5}-?[A-Za-z0-9]{4,5}$/u, { message: 'validation.recoveryCode' });
export const tokenSchema = z.string().min(20).max(200);

export const registerRequestSchema = z.object({
  name: personNameSchema,
  email: emailSchema,
  password: passwordSchema,
  phone: phoneSchema,
  dateOfBirth: dateOfBirthSchema,
  language: languageSchema,
  timeZone: timeZoneSchema,
  acceptTerms: z.literal(true, { message: 'validation.mustAccept' }),
  acceptTelemedicineConsent: z.literal(true, { message: 'validation.mustAccept' }),
});
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

/** `POST /auth/register` → 202, whether or not the email already had an account. */
export const registerResponseSchema = z.object({ status: z.literal('verification_sent') });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;
/** `POST /auth/password/forgot` and `/auth/verify-email/resend` → 202, whatever the email. */
export const acceptedResponseSchema = z.object({ status: z.literal('accepted') });
export type AcceptedResponse = z.infer<typeof acceptedResponseSchema>;
export const verifyEmailResponseSchema = z.object({ status: z.literal('verified') });
export type VerifyEmailResponse = z.infer<typeof verifyEmailResponseSchema>;
export const resendVerificationRequestSchema = z.object({ email: emailSchema });
export type ResendVerificationRequest = z.infer<typeof resendVerificationRequestSchema>;

export const loginRequestSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  totpCode: totpCodeSchema.optional(),
  recoveryCode: recoveryCodeSchema.optional(),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const forgotPasswordRequestSchema = z.object({ email: emailSchema });
export type ForgotPasswordRequest = z.infer<typeof forgotPasswordRequestSchema>;

export const resetPasswordRequestSchema = z.object({ token: tokenSchema, password: passwordSchema });
export type ResetPasswordRequest = z.infer<typeof resetPasswordRequestSchema>;

export const verifyEmailRequestSchema = z.object({ token: tokenSchema });
export type VerifyEmailRequest = z.infer<typeof verifyEmailRequestSchema>;

export const acceptInvitationRequestSchema = z.object({
  token: tokenSchema,
  password: passwordSchema,
  name: personNameSchema.optional(),
  /** The new user's IANA time zone (the browser's); the clinic's when absent. */
  timeZone: timeZoneSchema.optional(),
  acceptTerms: z.literal(true, { message: 'validation.mustAccept' }),
  /** Required when the invitation is a patient's (reception registered them): the telemedicine consent. */
  acceptTelemedicineConsent: z.literal(true, { message: 'validation.mustAccept' }).optional(),
});
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequestSchema>;

export const changePasswordRequestSchema = z.object({
  currentPassword: passwordSchema,
  newPassword: passwordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const updateProfileRequestSchema = z
  .object({
    name: personNameSchema,
    phone: phoneSchema.nullable(),
    language: languageSchema,
    timeZone: timeZoneSchema,
  })
  .partial();
export type UpdateProfileRequest = z.infer<typeof updateProfileRequestSchema>;

export const userSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  phone: z.string().nullable(),
  dateOfBirth: z.string().nullable(),
  language: languageSchema,
  timeZone: z.string(),
  photoUrl: z.string().nullable(),
  emailVerified: z.boolean(),
  mfaEnabled: z.boolean(),
  status: z.enum(['active', 'pending', 'disabled']),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const sessionInfoSchema = z.object({
  /** Seconds of inactivity after which the server ends the session. */
  idleTimeoutSeconds: z.number().int().positive(),
  /** Absolute end of the session, whatever the activity (ISO instant). */
  expiresAt: z.string(),
  /** The user's role requires a second factor that is not set up yet: only MFA setup is allowed. */
  mfaEnrollmentRequired: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const meResponseSchema = z.object({
  user: userSchema,
  roles: z.array(roleSummarySchema),
  permissions: z.array(z.string()),
  session: sessionInfoSchema,
});
export type MeResponse = z.infer<typeof meResponseSchema>;

export const activeSessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  isCurrent: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;
export const activeSessionsResponseSchema = z.object({ data: z.array(activeSessionSchema) });
export type ActiveSessionsResponse = z.infer<typeof activeSessionsResponseSchema>;

export const mfaSetupResponseSchema = z.object({
  /** otpauth:// URI for authenticator apps, and the same as a QR code data URL. */
  otpauthUrl: z.string(),
  qrCodeDataUrl: z.string(),
  /** The base32 key for manual entry. */
  secret: z.string(),
});
export type MfaSetupResponse = z.infer<typeof mfaSetupResponseSchema>;

export const mfaEnableRequestSchema = z.object({ code: totpCodeSchema });
export const mfaEnableResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type MfaEnableResponse = z.infer<typeof mfaEnableResponseSchema>;
export const mfaDisableRequestSchema = z.object({ password: passwordSchema, code: totpCodeSchema });

export const invitationInfoSchema = z.object({
  email: z.string(),
  name: z.string(),
  roles: z.array(roleSummarySchema),
});
export type InvitationInfo = z.infer<typeof invitationInfoSchema>;

export const createInvitationRequestSchema = z.object({
  email: emailSchema,
  name: personNameSchema,
  roleKeys: z.array(z.string().min(1).max(64)).min(1).max(20),
  language: languageSchema,
});
export type CreateInvitationRequest = z.infer<typeof createInvitationRequestSchema>;
/** `POST /invitations` → 201. */
export const invitationCreatedResponseSchema = z.object({ id: z.string(), expiresAt: z.string() });
export type InvitationCreatedResponse = z.infer<typeof invitationCreatedResponseSchema>;

export const setUserRolesRequestSchema = z.object({
  roleKeys: z.array(z.string().min(1).max(64)).max(20),
});
export type SetUserRolesRequest = z.infer<typeof setUserRolesRequestSchema>;

export const outboxStatusSchema = z.enum(['stored', 'queued', 'sent', 'failed']);
export const outboxItemSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  template: z.string(),
  language: languageSchema,
  status: outboxStatusSchema,
  error: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxItem = z.infer<typeof outboxItemSchema>;
/**
 * A file stored with an outbox email; its bytes are at `GET /outbox/:id/attachments/:index`,
 * except a clinical file's (`isClinical`: a visit summary), of which the outbox keeps only
 * the name, type and size.
 */
export const outboxAttachmentSchema = z.object({
  filename: z.string(),
  contentType: z.string(),
  /** Bytes. */
  size: z.number().int().nonnegative(),
  isClinical: z.boolean(),
});
export type OutboxAttachmentInfo = z.infer<typeof outboxAttachmentSchema>;
export const outboxMessageSchema = outboxItemSchema.extend({
  html: z.string(),
  text: z.string(),
  /**
   * Links whose secret (`?token=`) the stored copy hides: only the recipient
   * got a working reset, verification or invitation link.
   */
  hiddenLinks: z.number().int().nonnegative(),
  attachments: z.array(outboxAttachmentSchema),
});
export type OutboxMessage = z.infer<typeof outboxMessageSchema>;
