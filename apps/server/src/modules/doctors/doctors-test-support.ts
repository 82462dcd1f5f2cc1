/** The doctors tests' shared world: a test server, an admin per test, and helpers that make specialties and doctors. */
import { errorResponseSchema, validationErrorDetailsSchema } from '@telemedicina/shared/api';
import { doctorDirectoryPageSchema, type DoctorDirectoryItem } from '@telemedicina/shared/doctors';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { doctorProfiles, doctorSpecialties, specialties } from '../../db/schema.js';
import { createUser, send, signIn, type SignedInClient, type TestUser } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-context.js';

export let context: TestContext;
export let admin: SignedInClient;

beforeAll(async () => {
  context = await createTestContext();
});

beforeEach(async () => {
  admin = await signIn(context.app, await createUser(context.app, { roles: ['admin'] }));
});

afterAll(async () => {
  await context?.close();
});

export function codeOf(response: { json: () => unknown }): string {
  return errorResponseSchema.parse(response.json()).error.code;
}

export function issuesOf(response: { json: () => unknown }): { path: string; message: string }[] {
  const details = errorResponseSchema.parse(response.json()).error.details;
  return validationErrorDetailsSchema
    .parse(details)
    .issues.map((issue) => ({ path: issue.path, message: issue.message }));
}

let sequence = 0;
/** A word no other test's names contain, so `q` isolates each test's doctors in the shared database. */
export function uniqueToken(): string {
  sequence += 1;
  return `dq${sequence}${Math.random().toString(36).slice(2, 7)}`;
}

export async function createSpecialty(active = true): Promise<string> {
  const token = uniqueToken();
  const [row] = await context.db
    .insert(specialties)
    .values({ nameEs: `Especialidad ${token}`, nameEn: `Specialty ${token}`, active })
    .returning({ id: specialties.id });
  return row!.id;
}

/** A doctor user with a profile row (straight in the tables), optionally with specialties. */
export async function createDoctor(
  options: {
    name?: string;
    languages?: string[];
    acceptsNewPatients?: boolean;
    specialtyIds?: string[];
    status?: 'active' | 'pending' | 'disabled';
    roles?: string[];
  } = {},
): Promise<TestUser> {
  const doctor = await createUser(context.app, {
    roles: options.roles ?? ['doctor'],
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.status === undefined ? {} : { status: options.status }),
  });
  await context.db.insert(doctorProfiles).values({
    userId: doctor.id,
    licenseNumber: `LIC-${doctor.id.slice(0, 8)}`,
    languages: options.languages ?? ['es'],
    acceptsNewPatients: options.acceptsNewPatients ?? true,
    bioEs: 'Biografía',
    bioEn: 'Biography',
  });
  if (options.specialtyIds !== undefined && options.specialtyIds.length > 0) {
    await context.db
      .insert(doctorSpecialties)
      .values(options.specialtyIds.map((specialtyId) => ({ doctorUserId: doctor.id, specialtyId })));
  }
  return doctor;
}

export async function directory(query: string, session = admin.token): Promise<DoctorDirectoryItem[]> {
  const response = await send(context.app, 'GET', `/api/v1/doctors?${query}`, { session });
  expect(response.statusCode, response.body).toBe(200);
  return doctorDirectoryPageSchema.parse(response.json()).data;
}

export function patchDoctor(id: string, body: unknown, session: string) {
  return send(context.app, 'PATCH', `/api/v1/doctors/${id}`, { session, body });
}
