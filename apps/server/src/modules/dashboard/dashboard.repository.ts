import { appointmentStatuses, type AppointmentStatus } from '@telemedicina/shared/common';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';

/**
 * The dashboard's SQL. A range is inclusive calendar days in a time zone;
 * `date::timestamp AT TIME ZONE zone` is the instant that day starts there,
 * so appointments are bucketed by the clinic's local day (a DST day has 23
 * or 25 hours and is still one bucket), and `generate_series` gives every
 * day a row even when nothing happened. Every appointment scan is bounded by
 * `appointments.starts_at` (indexed); four queries in all, run side by side.
 */
export interface DashboardRange {
  from: string;
  to: string;
  timeZone: string;
}

export type DayCounts = { date: string } & Record<AppointmentStatus, number>;

export interface DoctorVisits {
  doctorId: string;
  name: string;
  completed: number;
  noShows: number;
  total: number;
}

export interface DashboardHeadCounts {
  activeUsers: number;
  patients: number;
  doctors: number;
}

/** The rows of a raw `execute` (both drivers answer `{ rows }`). */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

function startOf(date: string, timeZone: string): SQL {
  return sql`(${date}::date)::timestamp at time zone ${timeZone}`;
}

function endOf(date: string, timeZone: string): SQL {
  return sql`(${date}::date + 1)::timestamp at time zone ${timeZone}`;
}

/** Days in the range (both ends included). */
function dayCountOf(range: DashboardRange): SQL {
  return sql`(${range.to}::date - ${range.from}::date + 1)`;
}

/**
 * The instants the range's local days start, plus the end of the last day:
 * `width_bucket(instant, edges)` then numbers an instant's day (1 = `from`)
 * with a binary search, much cheaper per row than a time zone conversion.
 */
function dayEdgesOf(range: DashboardRange): SQL {
  return sql`select array_agg((d::date)::timestamp at time zone ${range.timeZone} order by d) as edges
    from generate_series(${range.from}::timestamp, (${range.to}::date + 1)::timestamp, interval '1 day') as d`;
}

/** Appointments starting on each day of the range, per status (zeros included). */
export async function countAppointmentsPerDay(db: Database, range: DashboardRange): Promise<DayCounts[]> {
  const perStatus = sql.join(
    appointmentStatuses.map(
      (status) => sql`count(*) filter (where a.status = ${status})::int as ${sql.identifier(status)}`,
    ),
    sql`, `,
  );
  const selected = sql.join(
    appointmentStatuses.map(
      (status) => sql`coalesce(c.${sql.identifier(status)}, 0) as ${sql.identifier(status)}`,
    ),
    sql`, `,
  );
  const result = await db.execute(sql`
    with days as (${dayEdgesOf(range)}),
    counts as (
      select width_bucket(a.starts_at, days.edges) as bucket, ${perStatus}
      from appointments a cross join days
      where a.starts_at >= ${startOf(range.from, range.timeZone)}
        and a.starts_at < ${endOf(range.to, range.timeZone)}
      group by 1
    )
    select to_char(${range.from}::date + i - 1, 'YYYY-MM-DD') as date, ${selected}
    from generate_series(1, ${dayCountOf(range)}) as i left join counts c on c.bucket = i
    order by i`);
  return rowsOf<DayCounts>(result);
}

/** Accounts holding the patient role created on each day of the range (zeros included). */
export async function countNewPatientsPerDay(
  db: Database,
  range: DashboardRange,
): Promise<{ date: string; count: number }[]> {
  const result = await db.execute(sql`
    with days as (${dayEdgesOf(range)}),
    counts as (
      select width_bucket(u.created_at, days.edges) as bucket, count(*)::int as count
      from users u cross join days
      where u.created_at >= ${startOf(range.from, range.timeZone)}
        and u.created_at < ${endOf(range.to, range.timeZone)}
        and exists (
          select 1 from user_roles ur join roles r on r.id = ur.role_id
          where ur.user_id = u.id and r.key = 'patient'
        )
      group by 1
    )
    select to_char(${range.from}::date + i - 1, 'YYYY-MM-DD') as date, coalesce(c.count, 0) as count
    from generate_series(1, ${dayCountOf(range)}) as i left join counts c on c.bucket = i
    order by i`);
  return rowsOf<{ date: string; count: number }>(result);
}

/** Days from its booked start within which a visit is admitted, for the wait's index bound. */
const admissionWindowDays = 7;

/**
 * In one scan of the range's appointments: visits per doctor (starting in
 * the range; most first, then by name; at most `limit`) and the mean wait
 * from check-in to admission of visits admitted in the range (summed per
 * doctor, then over all). The scan is bounded by `starts_at` (indexed) a
 * week either side of the range, since a patient is admitted around the
 * booked time, never a week away from it. Every bound is a constant the
 * planner folds (`(date ± n)::timestamp AT TIME ZONE zone` is immutable).
 */
export async function countVisitsAndWait(
  db: Database,
  range: DashboardRange,
  limit: number,
): Promise<{ visitsPerDoctor: DoctorVisits[]; averageWaitSeconds: number | null }> {
  const { timeZone } = range;
  const from = startOf(range.from, timeZone);
  const to = endOf(range.to, timeZone);
  const scanFrom = sql`(${range.from}::date - ${admissionWindowDays}::int)::timestamp at time zone ${timeZone}`;
  const scanTo = sql`(${range.to}::date + ${admissionWindowDays + 1}::int)::timestamp at time zone ${timeZone}`;
  const starts = sql`a.starts_at >= ${from} and a.starts_at < ${to}`;
  const admitted = sql`a.admitted_at >= ${from} and a.admitted_at < ${to}`;
  const result = await db.execute(sql`
    with per_doctor as (
      select a.doctor_user_id,
        count(*) filter (where ${starts} and a.status = 'completed')::int as completed,
        count(*) filter (where ${starts} and a.status = 'no_show')::int as no_shows,
        count(*) filter (where ${starts})::int as total,
        sum(a.admitted_at - a.checked_in_at) filter (where ${admitted}) as wait_sum,
        count(a.admitted_at - a.checked_in_at) filter (where ${admitted}) as wait_count
      from appointments a
      where a.starts_at >= ${scanFrom} and a.starts_at < ${scanTo}
      group by a.doctor_user_id
    )
    select w.wait, d."doctorId", d.name, d.completed, d."noShows", d.total
    from (
      select (extract(epoch from sum(wait_sum)) / nullif(sum(wait_count), 0))::float8 as wait from per_doctor
    ) w
    left join lateral (
      select p.doctor_user_id as "doctorId", u.name, p.completed, p.no_shows as "noShows", p.total
      from per_doctor p join users u on u.id = p.doctor_user_id
      where p.total > 0
      order by p.total desc, u.name asc, p.doctor_user_id
      limit ${limit}
    ) d on true`);
  const rows = rowsOf<{ wait: number | null } & { [K in keyof DoctorVisits]: DoctorVisits[K] | null }>(
    result,
  );
  return {
    visitsPerDoctor: rows.flatMap(({ doctorId, name, completed, noShows, total }) =>
      doctorId === null || name === null || completed === null || noShows === null || total === null
        ? []
        : [{ doctorId, name, completed, noShows, total }],
    ),
    averageWaitSeconds: rows[0]?.wait ?? null,
  };
}

/** Active accounts, and among them holders of the patient and doctor roles. */
export async function countActiveUsers(db: Database): Promise<DashboardHeadCounts> {
  const activeWithRole = (role: string): SQL => sql`(
    select count(*)::int from users u
    where u.status = 'active' and exists (
      select 1 from user_roles ur join roles r on r.id = ur.role_id where ur.user_id = u.id and r.key = ${role}
    ))`;
  const result = await db.execute(sql`
    select
      (select count(*)::int from users where status = 'active') as "activeUsers",
      ${activeWithRole('patient')} as patients,
      ${activeWithRole('doctor')} as doctors`);
  const [row] = rowsOf<DashboardHeadCounts>(result);
  return row ?? { activeUsers: 0, patients: 0, doctors: 0 };
}
