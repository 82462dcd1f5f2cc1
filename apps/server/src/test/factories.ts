import type { LightMyRequestResponse } from 'fastify';
import { meResponseSchema, type MeResponse } from '@telemedicina/shared/auth';
import { asc, desc, eq } from 'drizzle-orm';
import type { App } from '../app.js';
import { appointments, auditEvents, emailOutbox } from '../db/schema.js';
import { createTotpSecret, currentTotp } from '../lib/totp.js';
import {
  findRolesByKeys,
  insertUserIfEmailFree,
  replaceUserRoles,
} from '../modules/identity/users.repository.js';
import { parseSetCookie, type TestContext } from './test-context.js';

/** A well-formed XSRF token; the double-submit check only compares cookie and header. */
export const testXsrfToken = 'test-xsrf-token-0123456789abcdefghijklmnopq';

/** A password the policy accepts (tests that need a weak one spell it out). */
export const testPassword = 'Cl1nica-Segura-2026';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  password: string;
  roleKeys: string[];
  /** Base32 TOTP secret when the user was created with a second factor. */
  totpSecret: string | null;
}

let sequence = 0;

/** A unique address, so per-IP rate limits of one test never trip another. */
export function nextRemoteAddress(): string {
  sequence += 1;
  return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
}

/**
 * Creates an active, verified user straight in the database (with the app's
 * own hasher and secret box), holding the given role keys.
 */
export async function createUser(
  app: App,
  options: {
    roles?: string[];
    email?: string;
    name?: string;
    password?: string;
    language?: 'es' | 'en';
    status?: 'active' | 'pending' | 'disabled';
    isVerified?: boolean;
    hasMfa?: boolean;
  } = {},
): Promise<TestUser> {
  sequence += 1;
  const { db, passwords, secrets, now } = app.services;
  const email = options.email ?? `user${sequence}.${Math.random().toString(36).slice(2, 8)}@example.test`;
  const name = options.name ?? `Persona Prueba ${sequence}`;
  const password = options.password ?? testPassword;
  const roleKeys = options.roles ?? ['patient'];
  const totpSecret = options.hasMfa === true ? createTotpSecret() : null;
  const at = now();
  const user = await insertUserIfEmailFree(db, {
    email,
    name,
    phone: null,
    dateOfBirth: null,
    language: options.language ?? 'es',
    timeZone: 'America/Mexico_City',
    passwordHash: await passwords.hash(password),
    status: options.status ?? 'active',
    emailVerifiedAt: options.isVerified === false ? null : at,
    mfaSecretEncrypted: totpSecret === null ? null : secrets.encrypt(totpSecret),
    mfaEnabledAt: totpSecret === null ? null : at,
    createdAt: at,
    updatedAt: at,
  });
  if (user === null) {
    throw new Error(`createUser: ${email} already exists`);
  }
  const roles = await findRolesByKeys(db, roleKeys);
  await replaceUserRoles(
    db,
    user.id,
    roles.map((role) => role.id),
    at,
  );
  return { id: user.id, email, name, password, roleKeys, totpSecret };
}

/** Headers for a request: XSRF pair always, the session cookie when given. */
export function requestHeaders(sessionToken?: string | null): Record<string, string> {
  const cookies = [`XSRF-TOKEN=${testXsrfToken}`];
  if (sessionToken !== undefined && sessionToken !== null) {
    cookies.push(`tm_session=${sessionToken}`);
  }
  return { cookie: cookies.join('; '), 'x-xsrf-token': testXsrfToken };
}

export interface SignedInClient {
  /** The raw session token from the cookie. */
  token: string;
  /** Cookie and XSRF headers for the next requests. */
  headers: Record<string, string>;
  me: MeResponse;
  response: LightMyRequestResponse;
}

/** Signs a user in through `POST /auth/login` (with a TOTP code when the user has a second factor). */
export async function signIn(
  app: App,
  user: Pick<TestUser, 'email' | 'password' | 'totpSecret'>,
  options: { remoteAddress?: string; userAgent?: string } = {},
): Promise<SignedInClient> {
  const totpCode =
    user.totpSecret === null ? undefined : await currentTotp(user.totpSecret, app.services.now());
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { ...requestHeaders(), ...(options.userAgent ? { 'user-agent': options.userAgent } : {}) },
    remoteAddress: options.remoteAddress ?? nextRemoteAddress(),
    payload: { email: user.email, password: user.password, ...(totpCode ? { totpCode } : {}) },
  });
  if (response.statusCode !== 200) {
    throw new Error(`signIn(${user.email}) answered ${response.statusCode}: ${response.body}`);
  }
  const token = sessionTokenFrom(response);
  if (token === null) {
    throw new Error('signIn: no session cookie was set');
  }
  return { token, headers: requestHeaders(token), me: meResponseSchema.parse(response.json()), response };
}

/** The `tm_session` value a response set (empty string when it cleared it), or null. */
export function sessionTokenFrom(response: LightMyRequestResponse): string | null {
  return parseSetCookie(response.headers['set-cookie']).get('tm_session')?.value ?? null;
}

/** The newest outbox message to an address (optionally of one template), once background work is done. */
export async function latestEmail(
  app: App,
  to: string,
  template?: string,
): Promise<typeof emailOutbox.$inferSelect | null> {
  await app.services.background.idle();
  const rows = await app.services.db
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, to))
    .orderBy(desc(emailOutbox.createdAt), desc(emailOutbox.id));
  return rows.find((row) => template === undefined || row.template === template) ?? null;
}

/**
 * The `token` of the newest link to `path` (e.g. `/reset-password`) delivered to `to`.
 * The outbox keeps only a redacted copy, so the token is read where a recipient
 * reads it: the mail server (a context made with `smtp: true`).
 */
export async function deliveredToken(context: TestContext, to: string, path: string): Promise<string> {
  if (context.mail === null) {
    throw new Error('deliveredToken needs a test context created with { smtp: true }');
  }
  await context.app.services.background.idle();
  await context.app.services.mailer.idle();
  return context.mail.tokenFor(to, path);
}

/** Sends JSON with the XSRF pair (and a session when given) from a fresh address unless one is given. */
export function send(
  app: App,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options: {
    body?: unknown;
    session?: string | null;
    remoteAddress?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method,
    url,
    headers: { ...requestHeaders(options.session), ...options.headers },
    remoteAddress: options.remoteAddress ?? nextRemoteAddress(),
    ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
  });
}

/** Audit events of one action (newest last), straight from the table. */
export async function auditEventsOf(app: App, action: string): Promise<(typeof auditEvents.$inferSelect)[]> {
  await app.services.background.idle();
  return app.services.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.action, action))
    .orderBy(asc(auditEvents.id));
}

type AppointmentRow = typeof appointments.$inferSelect;

/**
 * Inserts an appointment straight into the table (the dashboard and search
 * read them before booking has its own services). `minutes` defaults to 30;
 * visit times are given as they should be stored.
 */
export async function createAppointment(
  app: App,
  input: {
    doctorId: string;
    patientId: string;
    startsAt: string | Date;
    minutes?: number;
    status?: AppointmentRow['status'];
    checkedInAt?: string | Date | null;
    admittedAt?: string | Date | null;
    startedAt?: string | Date | null;
    endedAt?: string | Date | null;
    cancelledAt?: string | Date | null;
  },
): Promise<AppointmentRow> {
  const instant = (value: string | Date | null | undefined): Date | null =>
    value === undefined || value === null ? null : new Date(value);
  const startsAt = new Date(input.startsAt);
  const [row] = await app.services.db
    .insert(appointments)
    .values({
      doctorUserId: input.doctorId,
      patientUserId: input.patientId,
      startsAt,
      endsAt: new Date(startsAt.getTime() + (input.minutes ?? 30) * 60_000),
      status: input.status ?? 'confirmed',
      checkedInAt: instant(input.checkedInAt),
      admittedAt: instant(input.admittedAt),
      startedAt: instant(input.startedAt),
      endedAt: instant(input.endedAt),
      cancelledAt: instant(input.cancelledAt),
    })
    .returning();
  if (row === undefined) {
    throw new Error('createAppointment: insert returned nothing');
  }
  return row;
}
