import type { AdminUser, Role } from '@telemedicina/shared/admin';

/** Two system roles as `GET /roles` lists them (for the users screens' tests). */
export const sampleRoles: Role[] = [
  {
    id: 'r-admin',
    key: 'admin',
    name: { es: 'Administrador', en: 'Administrator' },
    system: true,
    permissions: ['users.manage'],
    userCount: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  {
    id: 'r-doctor',
    key: 'doctor',
    name: { es: 'Médico', en: 'Doctor' },
    system: true,
    permissions: ['visits.host'],
    userCount: 3,
    createdAt: '2026-01-01T00:00:00.000Z',
  },
];

/** An account as `GET /users/:id` answers, with overrides. */
export function sampleUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 'u-2',
    email: 'luis@clinica.example',
    name: 'Luis Gómez',
    phone: null,
    dateOfBirth: null,
    language: 'es',
    timeZone: 'Europe/Madrid',
    photoUrl: null,
    emailVerified: true,
    mfaEnabled: false,
    status: 'active',
    createdAt: '2026-02-01T09:00:00.000Z',
    roles: [{ id: 'r-doctor', key: 'doctor', name: { es: 'Médico', en: 'Doctor' } }],
    lockedUntil: null,
    lastSignInAt: '2026-03-02T17:45:00.000Z',
    disabledAt: null,
    ...overrides,
  };
}
