/**
 * The data of `npm run bench:fhir`: a clinic of `patients` patients and `doctors` doctors with
 * `appointments` appointments over two years (one past, one to come), written straight into the
 * tables with INSERT … SELECT generate_series (not through the HTTP API: 100,000 rows take seconds).
 * Each held visit has the vitals the patient reported. Two of the people are real accounts made through the app's own factories (in this process, from
 * source): the measured doctor (with a second factor) and the measured patient; both sign in, and
 * both connect a SMART app through the real standalone launch (registration, authorization with
 * PKCE and consent, token exchange) — the doctor with `user/*.rs`, the patient with `patient/*.rs`.
 */
import type { DatabaseClient } from '../../apps/server/src/db/client.js';

export interface FhirBenchSetup {
  doctorId: string;
  patientId: string;
  /** Patients the measured doctor treats (a confirmed or held visit with them). */
  treatedPatientIds: string[];
  /** Held visits of the measured doctor (each with reported vitals) and their patients. */
  treatedVisits: { appointmentId: string; patientId: string }[];
  doctorSession: string;
  patientSession: string;
  doctorBearer: string;
  patientBearer: string;
  /** The first and last start of the seeded appointments (ISO). */
  firstStart: string;
  lastStart: string;
}

export interface FhirBenchSize {
  appointments: number;
  patients: number;
  doctors: number;
}

export const benchMfaKey = 'benchmark-only-mfa-encryption-key-0123456789';
export const benchPublicOrigin = 'http://127.0.0.1:8790';

const dayMs = 86_400_000;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Seeds the clinic and performs the two SMART launches; returns what the load needs. */
export async function seedFhirBench(
  db: DatabaseClient,
  databaseUrl: string,
  dataDir: string,
  size: FhirBenchSize,
): Promise<FhirBenchSetup> {
  const { buildApp } = await import('../../apps/server/src/app.js');
  const { loadConfig } = await import('../../apps/server/src/config/config.js');
  const { createUser, signIn } = await import('../../apps/server/src/test/factories.js');
  const { launchSmartApp } = await import('../../apps/server/src/test/smart-launch.js');
  const { sql } = await import('drizzle-orm');
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_ORIGIN: benchPublicOrigin,
    LOG_LEVEL: 'warn',
    SEED_DEMO: 'false',
    MFA_ENCRYPTION_KEY: benchMfaKey,
  });
  const app = await buildApp({ config, database: db });
  try {
    const doctor = await createUser(app, {
      roles: ['doctor'],
      name: 'Dra. Elena Banco',
      email: 'bench.doctor.0@example.test',
      hasMfa: true,
    });
    const patient = await createUser(app, {
      roles: ['patient'],
      name: 'Paciente Banco 0',
      email: 'bench.patient.0@example.test',
    });
    const started = performance.now();
    const run = (statement: ReturnType<typeof sql>) => db.db.execute(statement);
    await run(sql`
      insert into users (email, name, language, time_zone, status, email_verified_at, created_at, updated_at)
      select 'bench.patient.' || g || '@example.test', 'Paciente Banco ' || g, 'es', 'America/Mexico_City',
        'active', now(), now(), now()
      from generate_series(1, ${size.patients - 1}::int) g`);
    await run(sql`
      insert into users (email, name, language, time_zone, status, email_verified_at, created_at, updated_at)
      select 'bench.doctor.' || g || '@example.test', 'Dr. Banco ' || g, 'es', 'America/Mexico_City',
        'active', now(), now(), now()
      from generate_series(1, ${size.doctors - 1}::int) g`);
    for (const role of ['patient', 'doctor']) {
      await run(sql`
        insert into user_roles (user_id, role_id, created_at)
        select u.id, r.id, now() from users u, roles r
        where u.email like ${`bench.${role}.%`} and u.id not in (${doctor.id}, ${patient.id}) and r.key = ${role}`);
    }
    // Each doctor's visits are evenly spaced (30 minutes long, never overlapping), over one year
    // back and one year ahead; the patient of each is drawn at random (seeded: the same each run).
    const perDoctor = Math.ceil(size.appointments / size.doctors);
    const spacingMinutes = Math.max(30, Math.floor((730 * 1440) / perDoctor));
    const first = new Date(Math.floor((Date.now() - 365 * dayMs) / 3_600_000) * 3_600_000);
    await run(sql`select setseed(0.24)`);
    await run(sql`
      with d as (
        select array_agg(id order by (id = ${doctor.id}) desc, email) as ids from users
        where email like 'bench.doctor.%'),
      p as (
        select array_agg(id order by (id = ${patient.id}) desc, email) as ids from users
        where email like 'bench.patient.%'),
      slots as (
        select i, ${first.toISOString()}::timestamptz
          + ((i / ${size.doctors}::int) * ${spacingMinutes}::int) * interval '1 minute' as starts_at
        from generate_series(0, ${size.appointments - 1}::int) i)
      insert into appointments (doctor_user_id, patient_user_id, starts_at, ends_at, status, reason,
        started_at, ended_at, cancelled_at, cancellation_reason, cancelled_by, created_at, updated_at)
      select d.ids[1 + s.i % ${size.doctors}::int],
        p.ids[1 + floor(random() * ${size.patients}::int)::int],
        s.starts_at, s.starts_at + interval '30 minutes', x.status,
        'Control de seguimiento',
        case when x.status = 'completed' then s.starts_at end,
        case when x.status = 'completed' then s.starts_at + interval '25 minutes' end,
        case when x.status = 'cancelled' then s.starts_at - interval '1 day' end,
        case when x.status = 'cancelled' then 'No puede asistir' end,
        case when x.status = 'cancelled' then 'patient' end,
        s.starts_at - interval '14 days', s.starts_at - interval '14 days'
      from slots s, d, p,
        lateral (select case
          when s.i % 10 = 9 then 'cancelled'
          when s.starts_at >= now() then 'confirmed'
          when s.i % 10 = 8 then 'no_show'
          else 'completed' end as status) x`);
    // Vitals the patient reported for each held visit (the Observation searches read them).
    await run(sql`
      insert into visit_vitals (appointment_id, patient_user_id, temperature_c, heart_rate_bpm,
        systolic_mm_hg, diastolic_mm_hg, respiratory_rate, oxygen_saturation, weight_kg, height_cm, reported_at)
      select id, patient_user_id, round((36 + random() * 2)::numeric, 1), 60 + floor(random() * 40)::int,
        105 + floor(random() * 40)::int, 65 + floor(random() * 25)::int, 12 + floor(random() * 8)::int,
        94 + floor(random() * 6)::int, round((55 + random() * 40)::numeric, 1), 170, starts_at - interval '1 hour'
      from appointments where status = 'completed'`);
    // A table in service has been vacuumed: index-only counts, planner statistics.
    await run(sql`vacuum analyze users`);
    await run(sql`vacuum analyze user_roles`);
    await run(sql`vacuum analyze appointments`);
    await run(sql`vacuum analyze visit_vitals`);
    const range = rowsOf<{ first: string; last: string; total: string }>(
      await run(sql`
      select min(starts_at)::text as first, max(starts_at)::text as last, count(*)::text as total
      from appointments`),
    );
    const treated = rowsOf<{ id: string }>(
      await run(sql`
      select distinct patient_user_id as id from appointments
      where doctor_user_id = ${doctor.id} and status <> 'cancelled' limit 1000`),
    );
    const treatedPatientIds = treated.map((row) => row.id);
    const treatedVisits = rowsOf<{ appointmentId: string; patientId: string }>(
      await run(sql`
        select id as "appointmentId", patient_user_id as "patientId" from appointments
        where doctor_user_id = ${doctor.id} and status = 'completed' limit 1000`),
    );
    const seededIn = (performance.now() - started) / 1000;
    console.log(
      `Seeded ${range[0]?.total} appointments (${size.patients} patients, ${size.doctors} doctors, ` +
        `${perDoctor} per doctor every ${spacingMinutes} min) in ${seededIn.toFixed(1)} s; ` +
        `the measured doctor treats ${treatedPatientIds.length} of the patients.`,
    );

    const doctorSignedIn = await signIn(app, doctor);
    const patientSignedIn = await signIn(app, patient);
    const doctorLaunch = await launchSmartApp(app, doctorSignedIn.headers, {
      scope: 'openid fhirUser user/*.rs',
      name: 'Banco FHIR (clínico)',
    });
    const patientLaunch = await launchSmartApp(app, patientSignedIn.headers, {
      scope: 'openid fhirUser launch/patient patient/*.rs',
      name: 'Banco FHIR (paciente)',
    });
    console.log(
      `SMART launches: doctor granted "${doctorLaunch.tokens.scope}"; patient granted ` +
        `"${patientLaunch.tokens.scope}" (patient in context: ${patientLaunch.tokens.patient === patient.id}).`,
    );
    return {
      doctorId: doctor.id,
      patientId: patient.id,
      treatedPatientIds,
      treatedVisits,
      doctorSession: doctorSignedIn.token,
      patientSession: patientSignedIn.token,
      doctorBearer: doctorLaunch.tokens.accessToken,
      patientBearer: patientLaunch.tokens.accessToken,
      firstStart: new Date(range[0]?.first ?? first).toISOString(),
      lastStart: new Date(range[0]?.last ?? first).toISOString(),
    };
  } finally {
    await app.close();
  }
}
