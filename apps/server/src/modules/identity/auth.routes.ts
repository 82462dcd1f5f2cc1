import { errorResponseSchema } from '@telemedicina/shared/api';
import {
  acceptInvitationRequestSchema,
  acceptedResponseSchema,
  forgotPasswordRequestSchema,
  invitationInfoSchema,
  loginRequestSchema,
  meResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
  resendVerificationRequestSchema,
  resetPasswordRequestSchema,
  verifyEmailRequestSchema,
  verifyEmailResponseSchema,
} from '@telemedicina/shared/auth';
import { errorResponses } from '../../http/error-responses.js';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { clearSessionCookie, isSecureRequest } from '../../http/cookies.js';
import { appError, isAppError } from '../../lib/app-error.js';
import { rateLimits } from '../../http/rate-limits.js';
import { contextFor } from '../../http/service-context.js';
import { applySessionCookie } from '../../http/session-cookie.js';
import type { AppServices } from '../context.js';
import { acceptInvitation, getInvitation } from './invitations.service.js';
import { requestPasswordReset, resetPassword } from './password-reset.service.js';
import { login, logout } from './sign-in.service.js';
import { register, resendVerification, verifyEmail } from './registration.service.js';

export interface RouteOptions {
  services: AppServices;
}

const errors = errorResponses(400, 401, 403, 422, 429);
/** 204: no body. */
const noContent = z.null();

/** Sign-in answers that count as a failed guess for the per-address limit. */
const failedSignInCodes = new Set(['INVALID_CREDENTIALS', 'MFA_INVALID', 'ACCOUNT_LOCKED']);

/** `/auth/*`: registration, email verification, sign-in and out, password reset, invitations. */
export const authRoutes: FastifyPluginCallbackZod<RouteOptions> = (app, { services }, done) => {
  const failedSignIns = app.createRateLimit(rateLimits.failedLogin);

  app.post(
    '/auth/register',
    {
      config: { access: 'public', rateLimit: rateLimits.register },
      schema: {
        tags: ['auth'],
        summary: 'Patient self-registration (same answer whether or not the email has an account)',
        body: registerRequestSchema,
        response: { 202: registerResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await register(contextFor(services, request), request.body);
      return reply.status(202).send({ status: 'verification_sent' });
    },
  );

  app.post(
    '/auth/verify-email',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Confirm an email address with the emailed token',
        body: verifyEmailRequestSchema,
        response: { 200: verifyEmailResponseSchema, ...errors },
      },
    },
    async (request) => {
      await verifyEmail(contextFor(services, request), request.body.token);
      return { status: 'verified' as const };
    },
  );

  app.post(
    '/auth/verify-email/resend',
    {
      config: { access: 'public', rateLimit: rateLimits.emailedLink },
      schema: {
        tags: ['auth'],
        summary: 'Send a new verification link (always 202)',
        body: resendVerificationRequestSchema,
        response: { 202: acceptedResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      await resendVerification(contextFor(services, request), request.body.email);
      return reply.status(202).send({ status: 'accepted' });
    },
  );

  app.post(
    '/auth/login',
    {
      config: { access: 'public', rateLimit: rateLimits.login },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email, password and, when enabled, a TOTP or recovery code',
        body: loginRequestSchema,
        response: { 200: meResponseSchema, 423: errorResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const failures = await failedSignIns(request, { increment: false });
      if (!failures.isAllowed && failures.remaining <= 0) {
        const retryAfterSeconds = Math.max(1, failures.ttlInSeconds);
        void reply.header('retry-after', String(retryAfterSeconds));
        throw appError('RATE_LIMITED', 'Too many failed sign-ins. Try again later.', {
          retryAfterSeconds,
        });
      }
      try {
        const signedIn = await login(
          contextFor(services, request),
          request.body,
          request.actor?.sessionId ?? null,
        );
        applySessionCookie(services, request, reply, signedIn.started);
        return signedIn.me;
      } catch (error) {
        // Only failed guesses count toward the per-address limit.
        if (isAppError(error) && failedSignInCodes.has(error.code)) {
          await failedSignIns(request);
        }
        throw error;
      }
    },
  );

  app.post(
    '/auth/logout',
    {
      config: { access: 'public', allowDuringMfaEnrollment: true },
      schema: {
        tags: ['auth'],
        summary: 'Sign out (204 even without a session)',
        response: { 204: noContent },
      },
    },
    async (request, reply) => {
      await logout(contextFor(services, request));
      clearSessionCookie(reply, { isSecure: isSecureRequest(request, services.config.publicOrigin) });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/password/forgot',
    {
      config: { access: 'public', rateLimit: rateLimits.emailedLink },
      schema: {
        tags: ['auth'],
        summary: 'Email a reset link (always 202)',
        body: forgotPasswordRequestSchema,
        response: { 202: acceptedResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      requestPasswordReset(contextFor(services, request), request.body.email);
      return reply.status(202).send({ status: 'accepted' });
    },
  );

  app.post(
    '/auth/password/reset',
    {
      config: { access: 'public', rateLimit: rateLimits.emailedLink },
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the emailed token; ends every session',
        body: resetPasswordRequestSchema,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await resetPassword(contextFor(services, request), request.body.token, request.body.password);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/auth/invitations/:token',
    {
      config: { access: 'public', rateLimit: rateLimits.tokenLookup },
      schema: {
        tags: ['auth'],
        summary: 'Who an invitation is for, and with which roles',
        params: z.object({ token: z.string().min(1).max(200) }),
        response: { 200: invitationInfoSchema, ...errors },
      },
    },
    async (request) => getInvitation(contextFor(services, request), request.params.token),
  );

  app.post(
    '/auth/invitations/accept',
    {
      config: { access: 'public', rateLimit: rateLimits.emailedLink },
      schema: {
        tags: ['auth'],
        summary: 'Accept an invitation: create the account and sign in',
        body: acceptInvitationRequestSchema,
        response: { 200: meResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const signedIn = await acceptInvitation(
        contextFor(services, request),
        request.body,
        request.actor?.sessionId ?? null,
      );
      applySessionCookie(services, request, reply, signedIn.started);
      return signedIn.me;
    },
  );
  done();
};
