import type { Database } from '../../db/client.js';
import type { ServiceContext } from '../context.js';

/** A booked appointment as a follow-up sees it. */
export interface BookedAppointmentInfo {
  id: string;
  doctorUserId: string;
  patientUserId: string;
  startsAt: Date;
}

/**
 * Something a module above appointments does when an appointment is booked, inside the booking's
 * transaction (`db`); returns what to start after the commit (emails, pushes). Consents sit above
 * appointments in `serverModuleLayers`, so instead of being imported from here they are handed in
 * by the app (`app.ts`) as a follow-up: the call goes upward through a callback, never an import.
 */
export type BookingFollowUp = (
  ctx: ServiceContext,
  db: Database,
  appointment: BookedAppointmentInfo,
) => Promise<() => void>;

const followUps = new Set<BookingFollowUp>();

/** Registers a follow-up once (registering the same function again changes nothing). */
export function addBookingFollowUp(followUp: BookingFollowUp): void {
  followUps.add(followUp);
}

/** Runs every registered follow-up in the booking's transaction; the result starts their after-commit work. */
export async function runBookingFollowUps(
  ctx: ServiceContext,
  db: Database,
  appointment: BookedAppointmentInfo,
): Promise<() => void> {
  const afterCommit: (() => void)[] = [];
  for (const followUp of followUps) {
    afterCommit.push(await followUp(ctx, db, appointment));
  }
  return () => {
    for (const start of afterCommit) {
      start();
    }
  };
}
