/** Helpers shared by the identity module's tests. */
import { errorResponseSchema } from '@telemedicina/shared/api';
import type { RegisterRequest } from '@telemedicina/shared/auth';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import { testPassword } from '../../test/factories.js';
import type { TestContext } from '../../test/test-context.js';

let emailSequence = 0;
export function uniqueEmail(prefix = 'persona'): string {
  emailSequence += 1;
  return `${prefix}${emailSequence}.${Date.now().toString(36)}@example.test`;
}

export function registration(overrides: Partial<RegisterRequest> = {}): RegisterRequest {
  return {
    name: 'Lucía Fernández',
    email: uniqueEmail(),
    password: testPassword,
    phone: '+52 55 1234 5678',
    dateOfBirth: '1990-04-12',
    language: 'es',
    timeZone: 'America/Mexico_City',
    acceptTerms: true,
    acceptTelemedicineConsent: true,
    ...overrides,
  };
}

export function errorCode(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

export async function findUser(context: TestContext, email: string) {
  const [row] = await context.db.select().from(users).where(eq(users.email, email));
  return row ?? null;
}

let tokenSequence = 0;
/** A word no other test's users contain, so `q` isolates each test's rows in the shared database. */
export function uniqueToken(): string {
  tokenSequence += 1;
  return `zq${tokenSequence}${Math.random().toString(36).slice(2, 7)}`;
}
