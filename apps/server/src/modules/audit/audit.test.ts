import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '../../db/schema.js';
import { currentTotp } from '../../lib/totp.js';
import { createAdmin } from '../../cli/create-admin.js';
import { tinyPdf, uploadChartDocument } from '../../test/document-fixtures.js';
import {
  auditEventsOf,
  createUser,
  deliveredToken,
  requestHeaders,
  send,
  sessionTokenFrom,
  signIn,
  testPassword,
} from '../../test/factories.js';
import {
  createTestContext,
  parseSetCookie,
  testAppOrigin,
  type TestContext,
} from '../../test/test-context.js';
import { auditActions, recordAuditEvent } from './audit.service.js';
import { translationExtensionUrl } from '@telemedicina/shared/intake-logic';
import { authorizeWithConsent, launchSmartApp, registerTestClient } from '../../test/smart-launch.js';

let context: TestContext;
let offsetMs = 0;

beforeAll(async () => {
  context = await createTestContext({ now: () => new Date(Date.now() + offsetMs), smtp: true });
});

afterAll(async () => {
  await context?.close();
});

/** The database's own message for a failed statement (drizzle wraps it as the cause). */
async function failureOf(statement: Promise<unknown>): Promise<string> {
  try {
    await statement;
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    return `${error instanceof Error ? error.message : String(error)} ${cause}`;
  }
  return 'no error';
}

describe('audit trail storage', () => {
  it('records who, what, which record, when, from where and the outcome', async () => {
    await recordAuditEvent(
      context.db,
      {
        now: () => new Date('2026-02-03T04:05:06.000Z'),
        actorUserId: null,
        request: { ip: '203.0.113.7', userAgent: 'UA', requestId: 'req-1' },
      },
      {
        action: 'auth.login_failed',
        outcome: 'failure',
        targetType: 'user',
        targetId: 'u-1',
        details: { email: 'a@b.c' },
      },
    );
    const [event] = (await auditEventsOf(context.app, 'auth.login_failed')).filter(
      (row) => row.requestId === 'req-1',
    );
    expect(event).toMatchObject({
      at: new Date('2026-02-03T04:05:06.000Z'),
      actorUserId: null,
      actorIp: '203.0.113.7',
      userAgent: 'UA',
      action: 'auth.login_failed',
      targetType: 'user',
      targetId: 'u-1',
      outcome: 'failure',
      details: { email: 'a@b.c' },
    });
  });

  it('refuses UPDATE, DELETE and TRUNCATE at the database', async () => {
    const db = context.db;
    await recordAuditEvent(
      db,
      { now: () => new Date(), actorUserId: null, request: { ip: null, userAgent: null, requestId: null } },
      { action: 'auth.logout' },
    );
    const before = await db.select({ count: sql<number>`count(*)::int` }).from(auditEvents);
    expect(await failureOf(db.update(auditEvents).set({ action: 'auth.login' }))).toMatch(
      /append-only: UPDATE/,
    );
    expect(await failureOf(db.delete(auditEvents))).toMatch(/append-only: DELETE/);
    expect(await failureOf(db.execute(sql`truncate audit_events`))).toMatch(/append-only: TRUNCATE/);
    expect(
      await failureOf(
        db.execute(sql`delete from audit_events where id = (select min(id) from audit_events)`),
      ),
    ).toMatch(/append-only/);
    const after = await db.select({ count: sql<number>`count(*)::int` }).from(auditEvents);
    expect(after).toEqual(before);
  });
});

describe('audited actions', () => {
  it('writes an event for every action docs/IDENTITY.md lists', async () => {
    const app = context.app;
    // Registration and verification.
    const email = `auditada.${Date.now().toString(36)}@example.test`;
    await send(app, 'POST', '/api/v1/auth/register', {
      body: {
        name: 'Paciente Auditada',
        email,
        password: testPassword,
        phone: '+52 55 0000 0000',
        dateOfBirth: '1980-01-01',
        language: 'es',
        timeZone: 'UTC',
        acceptTerms: true,
        acceptTelemedicineConsent: true,
      },
    });
    await send(app, 'POST', '/api/v1/auth/verify-email', {
      body: { token: await deliveredToken(context, email, '/verify-email') },
    });
    // Failures and a lockout, then an admin unlock.
    const admin = await signIn(app, await createUser(app, { roles: ['admin'] }));
    for (let round = 0; round < 5; round += 1) {
      await send(app, 'POST', '/api/v1/auth/login', { body: { email, password: 'Wrong-Password-1' } });
    }
    const [patient] = await context.db.query.users.findMany({
      where: (users, { eq }) => eq(users.email, email),
    });
    await send(app, 'POST', `/api/v1/users/${patient!.id}/unlock`, { session: admin.token });
    // Reset, sign-in, password change, profile, MFA, sessions, logout.
    await send(app, 'POST', '/api/v1/auth/password/forgot', { body: { email } });
    const newPassword = 'Clave-Reiniciada-2026';
    await send(app, 'POST', '/api/v1/auth/password/reset', {
      body: { token: await deliveredToken(context, email, '/reset-password'), password: newPassword },
    });
    const client = await signIn(app, { email, password: newPassword, totpSecret: null });
    const changed = await send(app, 'POST', '/api/v1/me/password', {
      session: client.token,
      body: { currentPassword: newPassword, newPassword: testPassword },
    });
    const session = (await signIn(app, { email, password: testPassword, totpSecret: null })).token;
    expect(changed.statusCode).toBe(204);
    await send(app, 'PATCH', '/api/v1/me', { session, body: { name: 'Paciente Renombrada' } });
    const setup = (await send(app, 'POST', '/api/v1/me/mfa/setup', { session })).json<{ secret: string }>();
    const code = async (): Promise<string> => {
      offsetMs += 60_000;
      return currentTotp(setup.secret, app.services.now());
    };
    const enabled = await send(app, 'POST', '/api/v1/me/mfa/enable', {
      session,
      body: { code: await code() },
    });
    // Enabling rotates the session: the rest goes on with the new cookie.
    const enrolled = sessionTokenFrom(enabled);
    await send(app, 'POST', '/api/v1/me/mfa/recovery-codes', {
      session: enrolled,
      body: { code: await code() },
    });
    await send(app, 'POST', '/api/v1/me/mfa/disable', {
      session: enrolled,
      body: { password: testPassword, code: await code() },
    });
    await send(app, 'POST', '/api/v1/me/sessions/revoke-others', { session: enrolled });
    await send(app, 'GET', '/api/v1/outbox', { session: enrolled });
    await send(app, 'POST', '/api/v1/auth/logout', { session: enrolled });
    // Administration: invitation, acceptance, roles; the command-line admin.
    const invitee = `invitada.${Date.now().toString(36)}@example.test`;
    await send(app, 'POST', '/api/v1/invitations', {
      session: admin.token,
      body: { email: invitee, name: 'Dra. Invitada', roleKeys: ['doctor'], language: 'es' },
    });
    await send(app, 'POST', '/api/v1/auth/invitations/accept', {
      body: {
        token: await deliveredToken(context, invitee, '/accept-invitation'),
        password: testPassword,
        acceptTerms: true,
      },
    });
    await send(app, 'PUT', `/api/v1/users/${patient!.id}/roles`, {
      session: admin.token,
      body: { roleKeys: ['patient', 'staff'] },
    });
    // Clinic settings and the audit log viewer.
    await send(app, 'PATCH', '/api/v1/settings', {
      session: admin.token,
      body: { clinic: { name: 'Clínica Auditada', timeZone: 'Europe/Madrid', language: 'es' } },
    });
    await send(app, 'GET', '/api/v1/audit-events?action=settings.', { session: admin.token });
    await send(app, 'GET', '/api/v1/audit-events/export.csv', { session: admin.token });
    // Accounts, roles and specialties.
    const managed = await createUser(app, { roles: ['patient'], hasMfa: true });
    await send(app, 'GET', '/api/v1/users/export.csv', { session: admin.token });
    await send(app, 'PATCH', `/api/v1/users/${managed.id}`, {
      session: admin.token,
      body: { name: 'Otro Nombre' },
    });
    await send(app, 'POST', `/api/v1/users/${managed.id}/mfa/reset`, { session: admin.token });
    await send(app, 'POST', `/api/v1/users/${managed.id}/disable`, { session: admin.token });
    await send(app, 'POST', `/api/v1/users/${managed.id}/enable`, { session: admin.token });
    const role = (
      await send(app, 'POST', '/api/v1/roles', {
        session: admin.token,
        body: { key: 'auditada', name: { es: 'Auditada', en: 'Audited' }, permissions: ['audit.read'] },
      })
    ).json<{ id: string }>();
    await send(app, 'PATCH', `/api/v1/roles/${role.id}`, { session: admin.token, body: { permissions: [] } });
    await send(app, 'DELETE', `/api/v1/roles/${role.id}`, { session: admin.token });
    const specialty = (
      await send(app, 'POST', '/api/v1/specialties', {
        session: admin.token,
        body: { name: { es: 'Auditología', en: 'Audiology' } },
      })
    ).json<{ id: string }>();
    await send(app, 'PATCH', `/api/v1/specialties/${specialty.id}`, {
      session: admin.token,
      body: { active: false },
    });
    await send(app, 'DELETE', `/api/v1/specialties/${specialty.id}`, { session: admin.token });
    // Doctor profiles: the first admin edit creates the profile.
    const doctor = await createUser(app, { roles: ['doctor'] });
    await send(app, 'PATCH', `/api/v1/doctors/${doctor.id}`, {
      session: admin.token,
      body: { licenseNumber: 'AUD-2026' },
    });
    // Availability and booking: rules, exceptions, book, move, cancel, confirm.
    const bookingDoctor = await createUser(app, { roles: ['doctor'] });
    await context.db.execute(
      sql`insert into doctor_profiles (user_id, license_number) values (${bookingDoctor.id}, 'AUD-SLOTS')`,
    );
    const allDay = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: '00:00', end: '24:00' }));
    await send(app, 'PUT', `/api/v1/doctors/${bookingDoctor.id}/availability/rules`, {
      session: admin.token,
      body: { rules: allDay },
    });
    const exception = (
      await send(app, 'POST', `/api/v1/doctors/${bookingDoctor.id}/availability/exceptions`, {
        session: admin.token,
        body: { kind: 'time_off', startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-02T00:00:00Z' },
      })
    ).json<{ id: string }>();
    await send(app, 'DELETE', `/api/v1/doctors/${bookingDoctor.id}/availability/exceptions/${exception.id}`, {
      session: admin.token,
    });
    const bookingPatient = await signIn(app, await createUser(app, { roles: ['patient'] }));
    const from = new Date(Date.now() + offsetMs + 30 * 3_600_000).toISOString();
    const to = new Date(Date.now() + offsetMs + 40 * 3_600_000).toISOString();
    const { slots } = (
      await send(app, 'GET', `/api/v1/doctors/${bookingDoctor.id}/slots?from=${from}&to=${to}`, {
        session: bookingPatient.token,
      })
    ).json<{ slots: { startsAt: string }[] }>();
    const booked = (
      await send(app, 'POST', '/api/v1/appointments', {
        session: bookingPatient.token,
        body: { doctorId: bookingDoctor.id, startsAt: slots[0]?.startsAt, reason: 'Control anual' },
      })
    ).json<{ id: string }>();
    await send(app, 'POST', `/api/v1/appointments/${booked.id}/reschedule`, {
      session: bookingPatient.token,
      body: { startsAt: slots[1]?.startsAt },
    });
    await send(app, 'POST', `/api/v1/appointments/${booked.id}/cancel`, {
      session: bookingPatient.token,
      body: {},
    });
    const requested = await context.db.execute(sql`
      insert into appointments (doctor_user_id, patient_user_id, starts_at, ends_at, status)
      values (${bookingDoctor.id}, ${bookingPatient.me.user.id}, ${slots[2]?.startsAt}, ${slots[3]?.startsAt}, 'requested')
      returning id`);
    const requestedId = (requested as { rows: { id: string }[] }).rows[0]?.id ?? '';
    await send(app, 'POST', `/api/v1/appointments/${requestedId}/status`, {
      session: admin.token,
      body: { status: 'confirmed' },
    });
    // Video visits: device check, check-in, admission, delay, a shared file, a guest's steps, end.
    const visitPatient = await signIn(app, await createUser(app, { roles: ['patient'] }));
    const visitDoctor = await signIn(app, await createUser(app, { roles: ['doctor'] }));
    const visitStart = new Date(app.services.now().getTime() + 5 * 60_000);
    const visitRow = await context.db.execute(sql`
      insert into appointments (doctor_user_id, patient_user_id, starts_at, ends_at, status)
      values (${visitDoctor.me.user.id}, ${visitPatient.me.user.id}, ${visitStart.toISOString()},
              ${new Date(visitStart.getTime() + 30 * 60_000).toISOString()}, 'confirmed')
      returning id`);
    const visitId = (visitRow as { rows: { id: string }[] }).rows[0]?.id ?? '';
    await send(app, 'PUT', `/api/v1/visits/${visitId}/device-check`, {
      session: visitPatient.token,
      body: { browserSupported: true, camera: 'ok', microphone: 'ok', speaker: 'ok', connectivity: 'direct' },
    });
    await send(app, 'POST', `/api/v1/visits/${visitId}/check-in`, { session: visitPatient.token });
    await send(app, 'POST', `/api/v1/visits/${visitId}/admit`, { session: visitDoctor.token, body: {} });
    await send(app, 'POST', `/api/v1/visits/${visitId}/running-late`, {
      session: visitDoctor.token,
      body: { minutes: 10 },
    });
    const boundary = 'audit-visit-boundary';
    await app.inject({
      method: 'POST',
      url: `/api/v1/visits/${visitId}/files`,
      headers: {
        ...requestHeaders(visitPatient.token),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="informe.pdf"\r\n` +
          `Content-Type: application/pdf\r\n\r\n%PDF-1.4 informe\r\n--${boundary}--\r\n`,
      ),
    });
    const guestInvite = (
      await send(app, 'POST', `/api/v1/visits/${visitId}/guests`, {
        session: visitDoctor.token,
        body: { name: 'Intérprete', role: 'interpreter', language: 'en' },
      })
    ).json<{ id: string; url: string }>();
    const redeemed = await send(app, 'POST', '/api/v1/visit-guests/redeem', {
      body: { token: guestInvite.url.split('#')[1] },
    });
    const guestCookie = parseSetCookie(redeemed.headers['set-cookie']).get('tm_guest')?.value ?? '';
    await app.listen({ port: 0, host: '127.0.0.1' });
    const guestSocket = connectSocket(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      extraHeaders: { origin: testAppOrigin, cookie: `tm_guest=${guestCookie}` },
    });
    try {
      await guestSocket.timeout(20_000).emitWithAck('visit.join', { appointmentId: visitId, lastSeq: 0 });
    } finally {
      guestSocket.disconnect();
    }
    await send(app, 'POST', `/api/v1/visits/${visitId}/admit`, {
      session: visitDoctor.token,
      body: { participantKey: `guest:${guestInvite.id}` },
    });
    await send(app, 'DELETE', `/api/v1/visits/${visitId}/guests/${guestInvite.id}`, {
      session: visitDoctor.token,
    });
    await send(app, 'POST', `/api/v1/visits/${visitId}/end`, { session: visitDoctor.token });
    // Prescriptions: issue, read, PDF, public verification, cancel.
    const issued = await send(app, 'POST', `/api/v1/patients/${visitPatient.me.user.id}/prescriptions`, {
      session: visitDoctor.token,
      body: {
        items: [
          {
            medication: 'Paracetamol 500 mg',
            dose: '1',
            route: 'oral',
            frequency: 'c/8 h',
            duration: '3 días',
            quantity: '9',
          },
        ],
      },
    });
    const prescription = issued.json<{ id: string; verificationCode: string }>();
    await send(app, 'GET', `/api/v1/prescriptions/${prescription.id}`, { session: visitPatient.token });
    await send(app, 'GET', `/api/v1/prescriptions/verify/${prescription.verificationCode}`);
    await send(app, 'POST', `/api/v1/prescriptions/${prescription.id}/cancel`, {
      session: visitDoctor.token,
      body: { reason: 'Dosis equivocada' },
    });
    // Patient chart: the list, a read, an edit, an emergency access.
    const chartPatientId = visitPatient.me.user.id;
    await send(app, 'GET', '/api/v1/patients', { session: visitDoctor.token });
    await send(app, 'GET', `/api/v1/patients/${chartPatientId}/chart`, { session: visitDoctor.token });
    await send(app, 'POST', `/api/v1/patients/${chartPatientId}/allergies`, {
      session: visitDoctor.token,
      body: { substance: 'Penicilina' },
    });
    await send(app, 'POST', `/api/v1/patients/${chartPatientId}/emergency-access`, {
      session: (await signIn(app, bookingDoctor)).token,
      body: { reason: 'Urgencia: paciente inconsciente, necesito sus alergias.' },
    });
    // Chart documents: the patient uploads a document and removes it.
    const chartDocument = await uploadChartDocument(app, visitPatient.token, chartPatientId, {
      name: 'informe.pdf',
      type: 'application/pdf',
      bytes: tinyPdf(),
    });
    await send(
      app,
      'DELETE',
      `/api/v1/patients/${chartPatientId}/documents/${chartDocument.json<{ id: string }>().id}`,
      { session: visitPatient.token },
    );
    // Visit notes and vitals: vitals, create, autosave, diagnoses, sign, addendum.
    const noteUrl = `/api/v1/appointments/${visitId}/note`;
    await send(app, 'PUT', `/api/v1/appointments/${visitId}/vitals`, {
      session: visitPatient.token,
      body: { heartRateBpm: 72 },
    });
    await send(app, 'POST', noteUrl, { session: visitDoctor.token });
    await send(app, 'PATCH', noteUrl, {
      session: visitDoctor.token,
      body: { baseVersion: 1, plan: '<p>Reposo</p>' },
    });
    await send(app, 'PUT', `${noteUrl}/diagnoses`, {
      session: visitDoctor.token,
      body: { baseVersion: 2, items: [] },
    });
    await send(app, 'POST', `${noteUrl}/sign`, { session: visitDoctor.token, body: { baseVersion: 3 } });
    await send(app, 'POST', `${noteUrl}/addenda`, {
      session: visitDoctor.token,
      body: { body: '<p>Sin cambios</p>' },
    });
    // Record export: the patient's own copy, and an administrator's with a reason.
    await send(app, 'GET', '/api/v1/me/record/export', { session: visitPatient.token });
    await send(app, 'POST', `/api/v1/patients/${chartPatientId}/export`, {
      session: admin.token,
      body: { reason: 'Solicitud escrita del paciente para su nuevo médico' },
    });
    // SMART apps: registration token, registration, refusal, authorization, disconnect, block.
    const registrationToken = await send(app, 'POST', '/api/v1/smart/initial-access-tokens', {
      session: admin.token,
    });
    await registerTestClient(app, { initialAccessToken: registrationToken.json<{ token: string }>().token });
    const smartApp = await launchSmartApp(app, visitPatient.headers);
    await authorizeWithConsent(app, smartApp.client, visitPatient.headers, { decision: 'deny' });
    const connectedApps = await send(app, 'GET', '/api/v1/me/connected-apps', {
      session: visitPatient.token,
    });
    const connectionId = connectedApps.json<{ data: { id: string }[] }>().data[0]?.id ?? '';
    await send(app, 'DELETE', `/api/v1/me/connected-apps/${connectionId}`, { session: visitPatient.token });
    for (const blocked of [true, false]) {
      await send(app, 'PATCH', `/api/v1/smart/apps/${smartApp.client.clientId}`, {
        session: admin.token,
        body: { blocked },
      });
    }
    // Consents: publish a document, sign it, read the patient's consents, verify the code, withdraw.
    const consentDocument = await send(app, 'POST', '/api/v1/admin/consent-documents', {
      session: admin.token,
      body: { kind: 'procedure', titleEs: 'Prueba', titleEn: 'Test', bodyEs: 'Texto.', bodyEn: 'Text.' },
    });
    const consentDocumentBody = consentDocument.json<{ id: string; current: { id: string } }>();
    const consentSignature = await send(
      app,
      'POST',
      `/api/v1/consent-documents/${consentDocumentBody.id}/signatures`,
      {
        session: visitPatient.token,
        body: {
          versionId: consentDocumentBody.current.id,
          language: 'es',
          method: 'typed',
          typedName: 'Paciente',
        },
      },
    );
    const signedConsent = consentSignature.json<{ id: string; verificationCode: string }>();
    await send(app, 'GET', `/api/v1/patients/${chartPatientId}/consents`, { session: visitPatient.token });
    await send(app, 'GET', `/api/v1/consents/verify/${signedConsent.verificationCode}`);
    await send(app, 'POST', `/api/v1/consent-signatures/${signedConsent.id}/withdraw`, {
      session: visitPatient.token,
      body: { reason: 'Prueba' },
    });
    // Questionnaires: created, a new version, archived and brought back, assigned and unassigned.
    const sampleQuestionnaire = (es = '¿Fuma?') => ({
      resourceType: 'Questionnaire',
      title: 'Hábitos',
      _title: {
        extension: [
          {
            url: translationExtensionUrl,
            extension: [
              { url: 'lang', valueCode: 'en' },
              { url: 'content', valueString: 'Habits' },
            ],
          },
        ],
      },
      item: [
        {
          linkId: 'smoker',
          type: 'boolean',
          text: es,
          _text: {
            extension: [
              {
                url: translationExtensionUrl,
                extension: [
                  { url: 'lang', valueCode: 'en' },
                  { url: 'content', valueString: 'Do you smoke?' },
                ],
              },
            ],
          },
        },
      ],
    });
    const questionnaire = await send(app, 'POST', '/api/v1/questionnaires', {
      session: admin.token,
      body: { questionnaire: sampleQuestionnaire() },
    });
    const questionnaireUrl = `/api/v1/questionnaires/${questionnaire.json<{ id: string }>().id}`;
    await send(app, 'POST', `${questionnaireUrl}/versions`, {
      session: admin.token,
      body: { questionnaire: sampleQuestionnaire('¿Fuma usted?') },
    });
    await send(app, 'PATCH', questionnaireUrl, { session: admin.token, body: { archived: true } });
    await send(app, 'PATCH', questionnaireUrl, { session: admin.token, body: { archived: false } });
    const assigned = await send(app, 'POST', `${questionnaireUrl}/assignments`, {
      session: admin.token,
      body: { doctorId: visitDoctor.me.user.id },
    });
    const [assignment] = assigned.json<{ assignments: { id: string }[] }>().assignments;
    await send(app, 'DELETE', `${questionnaireUrl}/assignments/${assignment?.id ?? ''}`, {
      session: admin.token,
    });
    await createAdmin(context.database.client, app.services.passwords, {
      email: `cli.${Date.now().toString(36)}@example.test`,
      name: 'Admin Consola',
      password: testPassword,
    });

    const rows = await context.db.selectDistinct({ action: auditEvents.action }).from(auditEvents);
    const written = new Set(rows.map((row) => row.action));
    expect(auditActions.filter((action) => !written.has(action))).toEqual([]);
  });
});
