import { randomBytes } from 'node:crypto';
import type { ScratchDatabase } from './postgres.js';
import { HttpClient } from './clients.js';

/**
 * The demo clinic (seeded by the first start) made ready for the suites:
 * visits that start now (no notice, five-minute visits, no ICE servers),
 * both demo doctors on five-minute visits with extra hours from the next
 * minute on, and more patients than the demo's two.
 */
export interface Clinic {
  admin: HttpClient;
  doctors: { client: HttpClient; id: string; email: string }[];
  /** Signed-in patients: the two demo ones first, then the extra ones. */
  patients: { client: HttpClient; id: string; email: string }[];
}

interface SettingsBody {
  booking: { minimumNoticeMinutes: number; visitLengths: number[]; [key: string]: unknown };
  video: { iceServers: unknown[] };
}

export async function prepareClinic(
  baseUrl: string,
  database: ScratchDatabase,
  options: { extraPatients: number; extraHours: number },
): Promise<Clinic> {
  const admin = new HttpClient(baseUrl);
  await admin.signIn('admin@example.com');
  const settings = await admin.ok<SettingsBody>('GET', '/settings');
  await admin.ok('PATCH', '/settings', {
    booking: {
      ...settings.booking,
      minimumNoticeMinutes: 0,
      visitLengths: [...new Set([5, ...settings.booking.visitLengths])].sort((a, b) => a - b),
    },
    video: { ...settings.video, iceServers: [] },
  });

  const start = new Date(Math.ceil((Date.now() + 30_000) / 60_000) * 60_000);
  const doctors: Clinic['doctors'] = [];
  for (const email of ['medico1@example.com', 'medico2@example.com']) {
    const client = new HttpClient(baseUrl);
    await client.signIn(email);
    const me = await client.ok<{ user: { id: string } }>('GET', '/me');
    await client.ok('PATCH', `/doctors/${me.user.id}`, { visitMinutes: 5 });
    await client.ok('POST', `/doctors/${me.user.id}/availability/exceptions`, {
      kind: 'extra',
      startsAt: start.toISOString(),
      endsAt: new Date(start.getTime() + options.extraHours * 3_600_000).toISOString(),
      reason: 'Pruebas de sistema',
    });
    doctors.push({ client, id: me.user.id, email });
  }

  // Extra patients share the demo password (its hash is copied), so they sign in like anyone.
  const suffix = randomBytes(3).toString('hex');
  const extraEmails = Array.from(
    { length: options.extraPatients },
    (_, index) => `sys${index + 1}-${suffix}@example.com`,
  );
  if (extraEmails.length > 0) {
    await database.query(
      `insert into users (email, name, language, time_zone, password_hash, status, email_verified_at, created_at, updated_at)
       select e.email, 'Paciente Sistema ' || e.n, 'es', 'America/Mexico_City', u.password_hash, 'active', now(), now(), now()
       from users u, unnest($1::text[]) with ordinality as e(email, n)
       where u.email = 'paciente1@example.com'`,
      [extraEmails],
    );
    await database.query(
      `insert into user_roles (user_id, role_id, created_at)
       select u.id, r.id, now() from users u join roles r on r.key = 'patient' where u.email = any($1::text[])`,
      [extraEmails],
    );
  }
  const patients: Clinic['patients'] = [];
  for (const email of ['paciente1@example.com', 'paciente2@example.com', ...extraEmails]) {
    const client = new HttpClient(baseUrl);
    await client.signIn(email);
    const me = await client.ok<{ user: { id: string } }>('GET', '/me');
    patients.push({ client, id: me.user.id, email });
  }
  return { admin, doctors, patients };
}

/** The doctor's free slots starting within [from, to). */
export async function freeSlots(
  client: HttpClient,
  doctorId: string,
  from: Date,
  to: Date,
): Promise<{ startsAt: string; endsAt: string }[]> {
  const answer = await client.ok<{ slots: { startsAt: string; endsAt: string }[] }>(
    'GET',
    `/doctors/${doctorId}/slots?from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`,
  );
  return answer.slots;
}

/**
 * A visit in progress between `doctor` and `patient`: the patient books the
 * doctor's first free slot (opening now), checks in, the doctor admits.
 * Answers the appointment id.
 */
export async function startVisit(
  doctor: { client: HttpClient; id: string },
  patient: { client: HttpClient },
): Promise<string> {
  const slots = await freeSlots(
    patient.client,
    doctor.id,
    new Date(Date.now() - 60_000),
    new Date(Date.now() + 3_600_000),
  );
  const first = slots.find((slot) => Date.parse(slot.startsAt) >= Date.now() - 1_000);
  if (first === undefined) {
    throw new Error(`no free slot for ${doctor.id}`);
  }
  const appointment = await patient.client.ok<{ id: string }>('POST', '/appointments', {
    doctorId: doctor.id,
    startsAt: first.startsAt,
    reason: 'Videoconsulta',
  });
  await patient.client.ok('POST', `/visits/${appointment.id}/check-in`);
  await doctor.client.ok('POST', `/visits/${appointment.id}/admit`, {});
  return appointment.id;
}
