import { eq } from 'drizzle-orm';
import type { App } from '../app.js';
import { availabilityRules, doctorProfiles, users } from '../db/schema.js';
import { createUser, type TestUser } from './factories.js';

/**
 * Test fixtures of the booking modules: doctors with a profile, a zone and
 * weekly rules written straight to the tables (the endpoints that write them
 * have their own tests).
 */

export interface TestDoctor extends TestUser {
  timeZone: string;
}

export async function createDoctor(
  app: App,
  options: {
    timeZone?: string;
    visitMinutes?: number;
    acceptsNewPatients?: boolean;
    /** [weekday, 'HH:MM', 'HH:MM'] in the doctor's zone. */
    rules?: readonly (readonly [number, string, string])[];
  } = {},
): Promise<TestDoctor> {
  const timeZone = options.timeZone ?? 'Europe/Madrid';
  const user = await createUser(app, { roles: ['doctor'] });
  const db = app.services.db;
  await db.update(users).set({ timeZone }).where(eq(users.id, user.id));
  await db.insert(doctorProfiles).values({
    userId: user.id,
    licenseNumber: `LIC-${user.id.slice(0, 8)}`,
    visitMinutes: options.visitMinutes ?? 30,
    acceptsNewPatients: options.acceptsNewPatients ?? true,
  });
  const rules = options.rules ?? [];
  if (rules.length > 0) {
    await db.insert(availabilityRules).values(
      rules.map(([weekday, startTime, endTime]) => ({
        doctorUserId: user.id,
        weekday,
        startTime,
        endTime,
        timeZone,
      })),
    );
  }
  return { ...user, timeZone };
}

/** Every day of the week, the same hours. */
export function everyDay(start: string, end: string): [number, string, string][] {
  return [1, 2, 3, 4, 5, 6, 7].map((weekday) => [weekday, start, end]);
}

/** A clock tests move by hand; sessions are signed in again after a jump. */
export function createClock(start: string): { now: () => Date; set(iso: string): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (iso: string) => {
      current = new Date(iso);
    },
  };
}
