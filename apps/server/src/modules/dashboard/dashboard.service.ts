import type { DashboardQuery } from '@telemedicina/shared/admin';
import { appointmentStatuses } from '@telemedicina/shared/common';
import type { ServiceContext } from '../context.js';
import { addDays, assertDateRange, calendarDateIn } from '../settings/clinic-dates.js';
import { getCachedClinicSettings } from '../settings/clinic-settings-cache.js';
import {
  countActiveUsers,
  countAppointmentsPerDay,
  countNewPatientsPerDay,
  countVisitsAndWait,
  type DashboardHeadCounts,
  type DashboardRange,
  type DayCounts,
  type DoctorVisits,
} from './dashboard.repository.js';

/** Days the dashboard shows when no range is asked for (ending today). */
export const defaultDashboardDays = 30;
/** Doctors listed in "visits per doctor". */
export const visitsPerDoctorLimit = 20;

export interface DashboardData {
  range: DashboardRange;
  headCounts: DashboardHeadCounts;
  averageWaitSeconds: number | null;
  appointmentsPerDay: DayCounts[];
  newPatientsPerDay: { date: string; count: number }[];
  visitsPerDoctor: DoctorVisits[];
}

/**
 * The admin dashboard for inclusive dates in the clinic's time zone (default:
 * the last 30 days ending today there; from after to, or more than 366 days:
 * 400 `validation.dateRange`). Every figure is computed by SQL — four
 * aggregate queries, run side by side, two of them over the appointments of
 * the range — so the answer stays quick at 100,000 appointments and is all
 * zeros (rates null) at none.
 */
export async function getDashboard(ctx: ServiceContext, query: DashboardQuery): Promise<DashboardData> {
  assertDateRange(query.from, query.to);
  const { settings } = await getCachedClinicSettings(ctx.db, ctx.config);
  const timeZone = settings.clinic.timeZone;
  const to =
    query.to ??
    (query.from === undefined
      ? calendarDateIn(ctx.now(), timeZone)
      : addDays(query.from, defaultDashboardDays - 1));
  const from = query.from ?? addDays(to, -(defaultDashboardDays - 1));
  assertDateRange(from, to);
  const range: DashboardRange = { from, to, timeZone };
  const db = ctx.db;
  const [appointmentsPerDay, newPatientsPerDay, { visitsPerDoctor, averageWaitSeconds }, headCounts] =
    await Promise.all([
      countAppointmentsPerDay(db, range),
      countNewPatientsPerDay(db, range),
      countVisitsAndWait(db, range, visitsPerDoctorLimit),
      countActiveUsers(db),
    ]);
  return { range, headCounts, averageWaitSeconds, appointmentsPerDay, newPatientsPerDay, visitsPerDoctor };
}

/** Totals over the range, from the per-day rows. */
export function sumAppointments(
  days: readonly DayCounts[],
): Record<(typeof appointmentStatuses)[number], number> {
  const totals = Object.fromEntries(appointmentStatuses.map((status) => [status, 0])) as Record<
    (typeof appointmentStatuses)[number],
    number
  >;
  for (const day of days) {
    for (const status of appointmentStatuses) {
      totals[status] += day[status];
    }
  }
  return totals;
}
