import { randomUUID } from 'node:crypto';
import { systemRoles, type Permission, type SystemRoleKey } from '@telemedicina/shared/permission-catalogue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, send, signIn, type TestUser } from '../test/factories.js';
import { createTestContext, type TestContext } from '../test/test-context.js';
import type { RouteAccess, RouteAccessEntry } from './authentication.js';

/**
 * The authorisation matrix, generated from the route registry: every API
 * route × anonymous and each seeded role gets exactly the outcome its access
 * declaration promises. A new route is covered by being registered.
 */

let context: TestContext;
const roleKeys = Object.keys(systemRoles) as SystemRoleKey[];
const users = new Map<SystemRoleKey, TestUser>();

beforeAll(async () => {
  context = await createTestContext();
  for (const role of roleKeys) {
    users.set(role, await createUser(context.app, { roles: [role] }));
  }
});

afterAll(async () => {
  await context?.close();
});

type Caller = 'anonymous' | SystemRoleKey;
type Expected = 'allowed' | 'unauthenticated' | 'forbidden';

function expectedOutcome(access: RouteAccess, caller: Caller): Expected {
  if (access === 'public') {
    return 'allowed';
  }
  if (caller === 'anonymous') {
    return 'unauthenticated';
  }
  if (access === 'authenticated') {
    return 'allowed';
  }
  const granted: readonly Permission[] = systemRoles[caller].permissions;
  return access.anyOf.some((permission) => granted.includes(permission)) ? 'allowed' : 'forbidden';
}

/** A concrete URL for a route pattern: ids are random UUIDs, tokens made up, wildcards a file name. */
function concreteUrl(pattern: string): string {
  return pattern
    .replace(/:token\b/g, 'matrix-token-that-does-not-exist-0123456789')
    .replace(/:[A-Za-z]+/g, randomUUID())
    .replace(/\*$/, 'index.html');
}

function describeAccess(access: RouteAccess): string {
  return typeof access === 'string' ? access : `anyOf(${access.anyOf.join(', ')})`;
}

function routes(): RouteAccessEntry[] {
  return [...context.app.accessRegistry];
}

describe('authorization matrix', () => {
  it('covers a meaningful registry: every kind of access and the identity endpoints', () => {
    const registry = routes();
    expect(registry.length).toBeGreaterThan(25);
    expect(registry.some((entry) => entry.access === 'public')).toBe(true);
    expect(registry.some((entry) => entry.access === 'authenticated')).toBe(true);
    expect(registry.some((entry) => typeof entry.access === 'object')).toBe(true);
    const keys = new Set(registry.map((entry) => `${entry.method} ${entry.url}`));
    for (const route of [
      'POST /api/v1/auth/register',
      'POST /api/v1/auth/login',
      'POST /api/v1/auth/logout',
      'POST /api/v1/auth/password/forgot',
      'POST /api/v1/auth/password/reset',
      'GET /api/v1/me',
      'POST /api/v1/invitations',
      'PUT /api/v1/users/:id/roles',
      'GET /api/v1/users',
      'GET /api/v1/users/export.csv',
      'POST /api/v1/users/:id/disable',
      'GET /api/v1/roles',
      'DELETE /api/v1/roles/:id',
      'GET /api/v1/specialties',
      'GET /api/v1/outbox',
      'GET /api/v1/outbox/:id/attachments/:index',
      'GET /api/v1/doctors/:id/waitlist',
      // Video visits
      'GET /api/v1/visits/:appointmentId',
      'PUT /api/v1/visits/:appointmentId/device-check',
      'POST /api/v1/visits/:appointmentId/check-in',
      'POST /api/v1/visits/:appointmentId/admit',
      'POST /api/v1/visits/:appointmentId/end',
      'POST /api/v1/visits/:appointmentId/running-late',
      'GET /api/v1/doctors/:doctorId/waiting-room',
      'GET /api/v1/visits/:appointmentId/messages',
      'POST /api/v1/visits/:appointmentId/files',
      'GET /api/v1/visits/:appointmentId/files/:fileId',
      'POST /api/v1/visits/:appointmentId/guests',
      'GET /api/v1/visits/:appointmentId/guests',
      'DELETE /api/v1/visits/:appointmentId/guests/:guestId',
      'POST /api/v1/visit-guests/redeem',
      'GET /api/v1/visit-guests/current',
      // Diagnoses and prescriptions
      'GET /api/v1/diagnoses',
      'GET /api/v1/diagnoses/:code',
      'POST /api/v1/patients/:patientId/prescriptions',
      'GET /api/v1/patients/:patientId/prescriptions',
      'GET /api/v1/prescriptions/:id',
      'GET /api/v1/prescriptions/:id/pdf',
      'POST /api/v1/prescriptions/:id/cancel',
      'GET /api/v1/prescriptions/verify/:code',
      // Patient chart
      'GET /api/v1/patients',
      'GET /api/v1/patients/:patientId/chart',
      'PATCH /api/v1/patients/:patientId/profile',
      'POST /api/v1/patients/:patientId/allergies',
      'DELETE /api/v1/patients/:patientId/allergies/:entryId',
      'POST /api/v1/patients/:patientId/conditions',
      'DELETE /api/v1/patients/:patientId/conditions/:entryId',
      'POST /api/v1/patients/:patientId/medications',
      'DELETE /api/v1/patients/:patientId/medications/:entryId',
      'POST /api/v1/patients/:patientId/emergency-access',
      'GET /api/v1/me/record-access',
    ]) {
      expect(keys.has(route), route).toBe(true);
    }
  });

  const callers: Caller[] = ['anonymous', ...roleKeys];

  it.each(callers)('gives %s exactly the declared outcome on every route', async (caller) => {
    const mismatches: string[] = [];
    for (const entry of routes()) {
      const expected = expectedOutcome(entry.access, caller);
      // A fresh session per request: some routes end the session they are called with (logout, revoke).
      const session = caller === 'anonymous' ? null : (await signIn(context.app, users.get(caller)!)).token;
      const response = await send(context.app, entry.method as 'GET', concreteUrl(entry.url), {
        session,
        ...(['POST', 'PUT', 'PATCH'].includes(entry.method) ? { body: {} } : {}),
      });
      const status = response.statusCode;
      const code =
        status === 401 || status === 403 ? response.json<{ error: { code: string } }>().error.code : null;
      const actual: Expected | 'other' =
        status === 401 && code === 'UNAUTHENTICATED'
          ? 'unauthenticated'
          : status === 403 && code === 'FORBIDDEN'
            ? 'forbidden'
            : status !== 401 && status !== 403
              ? 'allowed'
              : 'other';
      if (actual !== expected) {
        mismatches.push(
          `${entry.method} ${entry.url} [${describeAccess(entry.access)}]: expected ${expected}, got ${status} ${code ?? ''}`,
        );
      }
    }
    expect(mismatches).toEqual([]);
  });
});
