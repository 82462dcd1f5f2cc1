import { emailSchema, personNameSchema } from '@telemedicina/shared/auth';
import { isTimeZone } from '@telemedicina/shared/common';
import { supportedLanguages, type Language } from '@telemedicina/shared/i18n';
import type { DatabaseClient } from '../db/client.js';
import { seedSystemData } from '../db/seed.js';
import { isAppError } from '../lib/app-error.js';
import type { PasswordHasher } from '../lib/passwords.js';
import { assertPasswordAcceptable } from '../lib/password-policy.js';
import { recordAuditEvent } from '../modules/audit/audit.service.js';
import {
  findRolesByKeys,
  insertUserIfEmailFree,
  replaceUserRoles,
} from '../modules/identity/users.repository.js';

export interface CreateAdminInput {
  email: string;
  name: string;
  password: string;
  language?: string;
  timeZone?: string;
}

/** A refusal to show the person at the terminal (bad input, weak password, email taken). */
export class CreateAdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CreateAdminError';
  }
}

/**
 * Creates an active, verified administrator on an open, migrated database:
 * how a PostgreSQL installation (no demo data) gets its first admin. The
 * password must pass the same policy as everywhere else. Records `user.created`.
 */
export async function createAdmin(
  db: DatabaseClient,
  hasher: PasswordHasher,
  input: CreateAdminInput,
  now: Date = new Date(),
): Promise<{ id: string; email: string }> {
  const email = emailSchema.safeParse(input.email);
  if (!email.success) {
    throw new CreateAdminError(`"${input.email}" is not an email address.`);
  }
  const name = personNameSchema.safeParse(input.name);
  if (!name.success) {
    throw new CreateAdminError(
      name.error.issues.some((issue) => issue.message === 'validation.bidiControls')
        ? 'The name must not hold invisible text-direction characters (U+202E and the like).'
        : 'The name must have between 2 and 120 characters.',
    );
  }
  const language = (input.language ?? 'es') as Language;
  if (!supportedLanguages.includes(language)) {
    throw new CreateAdminError(`The language must be one of: ${supportedLanguages.join(', ')}.`);
  }
  const timeZone = input.timeZone ?? 'UTC';
  if (!isTimeZone(timeZone)) {
    throw new CreateAdminError(`"${timeZone}" is not an IANA time zone (for example America/Mexico_City).`);
  }
  try {
    assertPasswordAcceptable(input.password, { email: email.data, name: name.data });
  } catch (error) {
    if (isAppError(error)) {
      const problems = (error.details as { problems?: string[] } | undefined)?.problems ?? [];
      throw new CreateAdminError(`The password is too weak: ${problems.map(describeProblem).join('; ')}.`);
    }
    throw error;
  }
  await seedSystemData(db.db, now);
  const passwordHash = await hasher.hash(input.password);
  return db.db.transaction(async (tx) => {
    const user = await insertUserIfEmailFree(tx, {
      email: email.data,
      name: name.data,
      language,
      timeZone,
      passwordHash,
      status: 'active',
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    });
    if (user === null) {
      throw new CreateAdminError(`An account with ${email.data} already exists.`);
    }
    const roles = await findRolesByKeys(tx, ['admin']);
    await replaceUserRoles(
      tx,
      user.id,
      roles.map((role) => role.id),
      now,
    );
    await recordAuditEvent(
      tx,
      {
        now: () => now,
        actorUserId: null,
        request: { ip: null, userAgent: 'create-admin', requestId: null },
      },
      {
        action: 'user.created',
        targetType: 'user',
        targetId: user.id,
        details: { via: 'cli', roleKeys: ['admin'] },
      },
    );
    return { id: user.id, email: user.email };
  });
}

function describeProblem(problem: string): string {
  switch (problem) {
    case 'tooShort':
      return 'use at least 10 characters';
    case 'tooLong':
      return 'use at most 128 characters';
    case 'tooCommon':
      return 'it is a common password';
    case 'containsPersonalData':
      return 'it contains the email or the name';
    case 'tooSimple':
      return 'use more different characters';
    default:
      return problem;
  }
}
