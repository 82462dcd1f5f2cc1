import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../apps/server/src/test/pdf-text.js';
import { ApiSession, ok, readLatestEmail } from './support/api.js';
import { launchBrowser, type BrowserHandle } from './support/browser.js';
import { startSmtpCatcher, type SmtpCatcher } from './support/mail.js';
import { mimeParts } from './support/mime.js';
import { startServer, type RunningServer } from './support/server.js';
import {
  accountZone,
  ClockPages,
  deviceZone,
  expectAccountClock,
  timeIn,
  tokenOf,
} from './support/one-clock.js';
import { settle } from './support/settle.js';
import { bookVisitNow, prepareDoctor, prepareVisitClinic } from './support/visits.js';

/*
 * One clock: the browser runs in Madrid, both accounts live in Mexico City (a clinic with patients
 * abroad, a doctor travelling). Every screen must say one appointment's time — and the times of
 * its chat, prescription and visit — as the account's wall clock, never the device's; so must what
 * the server writes about it: the note's signing, the notification, the email as delivered and
 * the PDFs. Each person also reads words addressed to them: the end of the call, a cancellation
 * and the home page, per role.
 */

const shots = '/tmp/shots/one-clock';

let server: RunningServer;
let mail: SmtpCatcher;
let browser: BrowserHandle;
let admin: ApiSession;
let doctor: ApiSession;
let doctorId: string;
let patient: ApiSession;
let patientId: string;
let appointmentId: string;
let startsAt: string;
let endsAt: string;
/** A later appointment of the same two, which the patient cancels. */
let laterId: string;
let laterStartsAt: string;
let prescriptionId: string;
let prescriptionIssuedAt: string;
let pages: ClockPages;

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  // The email is read as delivered (the outbox keeps no clinical attachment).
  mail = await startSmtpCatcher();
  server = await startServer({ env: { SMTP_URL: mail.url } });
  browser = await launchBrowser({ fakeMedia: true });
  pages = new ClockPages(browser, server.baseUrl, () => appointmentId);
  admin = await prepareVisitClinic(server.baseUrl);
  const prepared = await prepareDoctor(server.baseUrl, 'medico1@example.com');
  doctor = prepared.session;
  doctorId = prepared.id;
  patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente1@example.com');
  const reception = new ApiSession(server.baseUrl);
  await reception.signIn('recepcion@example.com');
  for (const session of [doctor, patient, reception]) {
    await ok(session.request('PATCH', '/me', { timeZone: accountZone, language: 'es' }), 'PATCH /me');
  }
  // The patient may cancel at any time (the later appointment is cancelled within the hour).
  const settings = await ok(
    admin.request<{ booking: Record<string, unknown> }>('GET', '/settings'),
    'GET /settings',
  );
  await ok(
    admin.request('PATCH', '/settings', { booking: { ...settings.booking, cancellationWindowHours: 0 } }),
    'PATCH /settings',
  );
  patientId = (await ok(patient.request<{ user: { id: string } }>('GET', '/me'), 'GET /me')).user.id;
  appointmentId = await bookVisitNow(patient, doctorId, 'Revisión de tensión');
  const appointment = await ok(
    patient.request<{ startsAt: string; endsAt: string }>('GET', `/appointments/${appointmentId}`),
    'GET appointment',
  );
  startsAt = appointment.startsAt;
  endsAt = appointment.endsAt;
  // The premise: the device's wall clock and the account's differ for this visit.
  expect(timeIn(startsAt, deviceZone)).not.toBe(timeIn(startsAt, accountZone));
}, 120_000);

afterAll(async () => {
  await pages?.closeAll();
  await browser?.close();
  await server?.stop();
  await mail?.close();
});

describe('one clock, with the browser in Madrid and the accounts in Mexico City', () => {
  it('shows one appointment at the same wall-clock time on every screen, in the account’s zone', async () => {
    const patientPage = await pages.signedIn('paciente1@example.com', 'es', 1280);
    const doctorPage = await pages.signedIn('medico1@example.com', 'es', 1280);

    // The appointment page.
    await patientPage.goto(pages.at(patientPage, `/appointments/${appointmentId}`));
    await expectAccountClock(patientPage.getByTestId('appointment-when'), startsAt, 'appointment page');

    // Home.
    await patientPage.goto(pages.at(patientPage));
    await expectAccountClock(
      // The upcoming list, or the portal's next-visit card.
      patientPage.getByTestId('home-upcoming').or(patientPage.getByTestId('portal-next-visit')),
      startsAt,
      'home',
    );

    // The device's zone differs from the account's: said once, in words, never as an IANA id.
    const notice = patientPage.getByTestId('time-zone-notice');
    await notice.waitFor({ timeout: 15_000 }).catch(() => undefined);
    expect.soft(await notice.count(), 'time-zone notice').toBe(1);
    const noticeText = (await notice.count()) > 0 ? await notice.innerText() : '';
    expect.soft(noticeText).toContain('hora de Madrid');
    expect.soft(noticeText).toContain('hora de Ciudad de México');
    expect.soft(noticeText).not.toMatch(/America\/|Europe\//);

    // A notification (the doctor's "new appointment").
    await doctorPage.goto(`${server.baseUrl}/admin`);
    await doctorPage.getByTestId('notification-bell').click();
    await expectAccountClock(doctorPage.getByTestId('notification-list'), startsAt, 'notification');
    await doctorPage.keyboard.press('Escape');

    // Its email, in the patient's zone and language, the zone in words.
    const email = await readLatestEmail(admin, 'paciente1@example.com', 'appointment-booked');
    expect.soft(email.text).toMatch(tokenOf(timeIn(startsAt, accountZone)));
    expect.soft(email.text).toContain('(hora de Ciudad de México)');
    expect.soft(email.text).not.toContain('America/Mexico_City');

    // The patient's waiting room and the visit header.
    await patientPage.goto(pages.at(patientPage, `/visits/${appointmentId}`));
    await expectAccountClock(patientPage.getByTestId('visit-lobby'), startsAt, 'patient waiting room');
    await expectAccountClock(patientPage.getByTestId('visit-page'), startsAt, 'visit header');

    // The doctor's waiting room.
    await doctorPage.goto(`${server.baseUrl}/admin/waiting-room`);
    const entry = await expectAccountClock(
      doctorPage.getByTestId('waiting-room-entry'),
      startsAt,
      'doctor waiting room',
    );
    expect.soft(entry).toContain(`${timeIn(startsAt, accountZone)}–${timeIn(endsAt, accountZone)}`);
    await doctorPage.screenshot({ path: `${shots}/waiting-room-live-es-1280.png`, fullPage: true });
    await patientPage.screenshot({ path: `${shots}/visit-lobby-es-1280.png`, fullPage: true });

    // Check-in, admission; the patient writes in the chat; its time is the account's.
    await patientPage.getByTestId('visit-check-in').click({ timeout: 60_000 });
    await patientPage.getByTestId('visit-waiting').waitFor({ timeout: 20_000 });
    await ok(doctor.request('POST', `/visits/${appointmentId}/admit`, {}), 'admit');
    const chatInput = patientPage.getByTestId('visit-chat-input').last();
    const chatOpen = patientPage.getByTestId('visit-chat-open');
    // The call screen shows the chat beside the video, or a button that opens it: wait for either.
    await chatInput.or(chatOpen).first().waitFor({ timeout: 30_000 });
    if (!(await chatInput.isVisible()) && (await chatOpen.isVisible())) {
      await chatOpen.click();
    }
    await chatInput.waitFor({ timeout: 30_000 });
    const sentAt = new Date().toISOString();
    await chatInput.fill('Buenos días, doctora');
    await chatInput.press('Enter');
    const message = patientPage.getByTestId('visit-chat-message').filter({ hasText: 'Buenos días, doctora' });
    await message.first().waitFor({ timeout: 20_000 });
    const history = await ok(
      patient.request<{ data: { body: string | null; createdAt: string }[] }>(
        'GET',
        `/visits/${appointmentId}/messages`,
      ),
      'GET messages',
    );
    const stored = history.data.find((item) => item.body === 'Buenos días, doctora');
    expect(stored, JSON.stringify(history)).toBeDefined();
    await expectAccountClock(message, stored?.createdAt ?? sentAt, 'chat message');

    // A prescription: its page and the chart say the same time.
    const prescription = await ok(
      doctor.request<{ id: string; issuedAt: string }>('POST', `/patients/${patientId}/prescriptions`, {
        appointmentId,
        items: [
          {
            medication: 'Paracetamol 500 mg comprimidos',
            dose: '1 comprimido',
            route: 'Oral',
            frequency: 'Cada 8 horas',
            duration: '3 días',
            quantity: '1 caja',
          },
        ],
      }),
      'POST prescription',
    );
    prescriptionId = prescription.id;
    prescriptionIssuedAt = prescription.issuedAt;
    await doctorPage.goto(`${server.baseUrl}/admin/prescriptions/${prescription.id}`);
    await expectAccountClock(
      doctorPage.getByTestId('prescription-page'),
      prescription.issuedAt,
      'prescription',
    );
    await doctorPage.screenshot({ path: `${shots}/prescription-es-1280.png`, fullPage: true });
    await doctorPage.goto(`${server.baseUrl}/admin/patients/${patientId}`);
    await expectAccountClock(doctorPage.getByTestId('chart-prescriptions'), prescription.issuedAt, 'chart');
    await doctorPage.screenshot({ path: `${shots}/chart-es-1280.png`, fullPage: true });

    // The end: arrival, admission and end times on the patient's page, and the chat history.
    const ended = await ok(
      doctor.request<{ checkedInAt: string | null; admittedAt: string | null; endedAt: string | null }>(
        'POST',
        `/visits/${appointmentId}/end`,
        {},
      ),
      'end',
    );
    const endedView = patientPage.getByTestId('visit-ended');
    await endedView.waitFor({ timeout: 30_000 });
    for (const [label, instant] of [
      ['arrival', ended.checkedInAt],
      ['admission', ended.admittedAt],
      ['end', ended.endedAt],
    ] as const) {
      expect(instant, label).not.toBeNull();
      await expectAccountClock(endedView, instant!, `visit ended: ${label}`);
    }
    await expectAccountClock(
      patientPage.getByTestId('visit-chat-message').filter({ hasText: 'Buenos días, doctora' }),
      stored?.createdAt ?? sentAt,
      'chat history after the visit',
    );

    // The end of the call, worded for each side: the patient about their doctor, the doctor about
    // the patient and the note still to complete.
    expect(await patientPage.getByTestId('visit-ended-body').innerText()).toBe(
      'Gracias. Su consulta con Dra. Lucía Martínez ha finalizado.',
    );
    await doctorPage.goto(`${server.baseUrl}/admin/visits/${appointmentId}`);
    await doctorPage.getByTestId('visit-ended').waitFor({ timeout: 30_000 });
    expect(await doctorPage.getByTestId('visit-ended-body').innerText()).toBe(
      'La consulta con Pablo Paciente ha finalizado. Complete la nota de la consulta.',
    );
    await expectAccountClock(doctorPage.getByTestId('visit-ended'), ended.endedAt!, 'doctor: visit ended');
  }, 240_000);

  it('says the same time in the signed note, its notification, the email as delivered and the PDFs', async () => {
    // The doctor writes and signs the note (the editor is the clinical-record journey's subject).
    const created = await ok(
      doctor.request<{ version: number }>('POST', `/appointments/${appointmentId}/note`, {}),
      'POST note',
    );
    const saved = await ok(
      doctor.request<{ version: number }>('PATCH', `/appointments/${appointmentId}/note`, {
        baseVersion: created.version,
        plan: '<p>Control de tensión en dos semanas.</p>',
      }),
      'PATCH note',
    );
    const deliveredAfter = Date.now();
    const signed = await ok(
      doctor.request<{ signedAt: string }>('POST', `/appointments/${appointmentId}/note/sign`, {
        baseVersion: saved.version,
      }),
      'POST sign',
    );

    // The note: signed at the account's time.
    const doctorPage = await pages.signedIn('medico1@example.com', 'es', 1280);
    await doctorPage.goto(`${server.baseUrl}/admin/appointments/${appointmentId}/note`);
    await expectAccountClock(doctorPage.getByTestId('note-signed-by'), signed.signedAt, 'signed note');
    await settle(doctorPage);
    await doctorPage.screenshot({ path: `${shots}/note-signed-es-1280.png`, fullPage: true });

    // The patient's notification that the note is signed names the visit's time.
    const patientPage = await pages.signedIn('paciente1@example.com', 'es', 1280);
    await patientPage.getByTestId('notification-bell').click();
    await expectAccountClock(
      patientPage.locator('[data-testid="notification-item"][data-kind="note.signed"]'),
      startsAt,
      'note-signed notification',
    );
    await patientPage.keyboard.press('Escape');

    // Its email, as the mail server received it: the visit's time in the account's zone, in words.
    const summaryEmail = () =>
      mail.messages.find(
        (message) =>
          message.to.includes('paciente1@example.com') &&
          message.receivedAt >= deliveredAfter &&
          /Content-Type:\s*application\/pdf/i.test(message.raw),
      );
    await expect.poll(() => summaryEmail() !== undefined, { timeout: 30_000 }).toBe(true);
    const parts = mimeParts(summaryEmail()!.raw);
    const text = parts.find((part) => part.contentType === 'text/plain')?.bytes.toString('utf8') ?? '';
    expect.soft(text, 'email').toMatch(tokenOf(timeIn(startsAt, accountZone)));
    expect.soft(text, 'email').not.toMatch(tokenOf(timeIn(startsAt, deviceZone)));
    expect.soft(text, 'email').toContain('(hora de Ciudad de México)');
    expect.soft(text, 'email').not.toMatch(/America\/|Europe\//);

    // Its PDF (the visit summary attached to that email) says the visit's time the same way.
    const attached = parts.find((part) => part.contentType === 'application/pdf');
    expect(attached, parts.map((part) => part.contentType).join(', ')).toBeDefined();
    const summary = pdfText(attached!.bytes);
    expect.soft(summary, 'visit summary PDF').toContain('Resumen de la consulta');
    expect.soft(summary, 'visit summary PDF').toMatch(tokenOf(timeIn(startsAt, accountZone)));
    expect.soft(summary, 'visit summary PDF').not.toMatch(tokenOf(timeIn(startsAt, deviceZone)));
    expect.soft(summary, 'visit summary PDF').toContain('hora de Ciudad de México');
    expect.soft(summary, 'visit summary PDF').not.toMatch(/America\/|Europe\//);

    // The prescription's PDF says when it was issued as its page and the chart do.
    const prescriptionPdf = await patientPage
      .context()
      .request.get(`${server.baseUrl}/api/v1/prescriptions/${prescriptionId}/pdf`);
    expect(prescriptionPdf.status()).toBe(200);
    const prescribed = pdfText(Buffer.from(await prescriptionPdf.body()));
    expect.soft(prescribed, 'prescription PDF').toContain('Paracetamol 500 mg');
    expect.soft(prescribed, 'prescription PDF').toMatch(tokenOf(timeIn(prescriptionIssuedAt, accountZone)));
    expect
      .soft(prescribed, 'prescription PDF')
      .not.toMatch(tokenOf(timeIn(prescriptionIssuedAt, deviceZone)));
    expect.soft(prescribed, 'prescription PDF').toContain('hora de Ciudad de México');

    // The calendar file: the absolute time in UTC, and the description in the account's words.
    const ics = await patientPage
      .context()
      .request.get(`${server.baseUrl}/api/v1/appointments/${appointmentId}/calendar.ics`);
    expect(ics.status()).toBe(200);
    const lines = (await ics.text()).replaceAll('\r\n ', '').split('\r\n');
    const utc = startsAt
      .replace(/\.\d{3}Z$/, 'Z')
      .replaceAll('-', '')
      .replaceAll(':', '');
    expect.soft(lines, 'calendar file').toContain(`DTSTART:${utc}`);
    const description = lines.find((line) => line.startsWith('DESCRIPTION:')) ?? '';
    expect.soft(description, 'calendar description').toMatch(tokenOf(timeIn(startsAt, accountZone)));
    expect.soft(description, 'calendar description').toContain('hora de Ciudad de México');
  }, 180_000);

  it('words a cancellation and the home page for the person reading them', async () => {
    // A later appointment of the same two (20 minutes ahead or more), which the patient cancels.
    const slots = await ok(
      patient.request<{ slots: { startsAt: string }[] }>(
        'GET',
        `/doctors/${doctorId}/slots?from=${encodeURIComponent(new Date().toISOString())}&to=${encodeURIComponent(
          new Date(Date.now() + 90 * 60_000).toISOString(),
        )}`,
      ),
      'GET slots',
    );
    const later = slots.slots.find((slot) => Date.parse(slot.startsAt) >= Date.now() + 20 * 60_000);
    expect(later, JSON.stringify(slots)).toBeDefined();
    laterStartsAt = later!.startsAt;
    laterId = (
      await ok(
        patient.request<{ id: string }>('POST', '/appointments', {
          doctorId,
          startsAt: laterStartsAt,
          reason: 'Control',
        }),
        'POST later appointment',
      )
    ).id;
    await ok(patient.request('POST', `/appointments/${laterId}/cancel`, {}), 'POST cancel');

    // The patient reads that they cancelled it; the doctor reads that the patient did; both at
    // the account's time.
    const patientPage = await pages.signedIn('paciente1@example.com', 'es', 1280);
    await patientPage.getByTestId('notification-bell').click();
    const patientNotice = patientPage.locator(
      '[data-testid="notification-item"][data-kind="appointment.cancelled"]',
    );
    const patientText = await expectAccountClock(patientNotice, laterStartsAt, 'patient: cancelled');
    expect(patientText).toContain('Usted canceló la cita del');
    await settle(patientPage);
    await patientPage.screenshot({ path: `${shots}/cancelled-patient-es-1280.png` });
    await patientPage.keyboard.press('Escape');

    const doctorPage = await pages.signedIn('medico1@example.com', 'es', 1280);
    await doctorPage.getByTestId('notification-bell').click();
    const doctorNotice = doctorPage.locator(
      '[data-testid="notification-item"][data-kind="appointment.cancelled"]',
    );
    const doctorText = await expectAccountClock(doctorNotice, laterStartsAt, 'doctor: cancelled');
    expect(doctorText).toContain('El paciente canceló la cita del');
    expect(doctorText).not.toContain('Usted');
    await doctorPage.keyboard.press('Escape');

    // The emails say it the same way: "por usted" to the patient, "por el paciente" to the doctor.
    const toPatient = await readLatestEmail(admin, 'paciente1@example.com', 'appointment-cancelled');
    expect(toPatient.text).toContain('fue cancelada por usted');
    expect(toPatient.text).toMatch(tokenOf(timeIn(laterStartsAt, accountZone)));
    const toDoctor = await readLatestEmail(admin, 'medico1@example.com', 'appointment-cancelled');
    expect(toDoctor.text).toContain('fue cancelada por el paciente');
    expect(toDoctor.text).toMatch(tokenOf(timeIn(laterStartsAt, accountZone)));

    // The appointment page says who cancelled, worded for each reader (reception too).
    const cancelledBy = async (page: Page): Promise<string> => {
      await page.goto(pages.at(page, `/appointments/${laterId}`));
      await page.getByTestId('appointment-cancelled-by').waitFor({ timeout: 20_000 });
      return page.getByTestId('appointment-cancelled-by').innerText();
    };
    expect(await cancelledBy(patientPage)).toBe('Usted canceló la cita.');
    await settle(patientPage);
    await patientPage.screenshot({
      path: `${shots}/appointment-cancelled-patient-es-1280.png`,
      fullPage: true,
    });
    expect(await cancelledBy(doctorPage)).toBe('El paciente canceló la cita.');
    const receptionPage = await pages.signedIn('recepcion@example.com', 'es', 1280);
    expect(await cancelledBy(receptionPage)).toBe('El paciente canceló la cita.');
    await settle(receptionPage);
    await receptionPage.screenshot({
      path: `${shots}/appointment-cancelled-reception-es-1280.png`,
      fullPage: true,
    });

    // Home: each person reads what they can do there.
    const homeOf = async (page: Page): Promise<string> => {
      await page.goto(pages.at(page));
      const home = page.getByTestId('admin-dashboard').or(page.getByTestId('portal-home'));
      await home.first().waitFor({ timeout: 20_000 });
      return home.first().innerText();
    };
    const patientHome = await homeOf(patientPage);
    expect(patientHome).toContain('Hola, Pablo Paciente');
    // Neither the doctor's nor the clinic's words.
    expect(patientHome).not.toContain('Su día de consultas');
    expect(patientHome).not.toContain('para un paciente');
    const doctorHome = await homeOf(doctorPage);
    expect(doctorHome).toContain('Hola, Dra. Lucía Martínez');
    expect(doctorHome).toContain('Su día de consultas');
    expect(doctorHome).not.toContain('Busque un médico y reserve una cita.');
    expect(doctorHome).not.toContain('La agenda del día de la clínica');
    const receptionHome = await homeOf(receptionPage);
    expect(receptionHome).toContain('Hola, Rosa Recepción');
    expect(receptionHome).toContain('La agenda del día de la clínica');
    expect(receptionHome).not.toContain('Busque un médico y reserve una cita.');
    expect(receptionHome).not.toContain('Su día de consultas');
    await settle(receptionPage);
    await receptionPage.screenshot({ path: `${shots}/home-reception-es-1280.png`, fullPage: true });
  }, 180_000);

  it('looks right in Spanish and English, on a phone and a desktop (screenshots)', async () => {
    for (const lang of ['es', 'en'] as const) {
      for (const width of [390, 1280]) {
        const patientPage = await pages.signedIn('paciente1@example.com', lang, width);
        await patientPage.goto(pages.at(patientPage, `/appointments/${appointmentId}`));
        await patientPage.getByTestId('appointment-when').waitFor();
        await patientPage.getByTestId('time-zone-notice').waitFor();
        expect(await patientPage.getByTestId('appointment-when').innerText()).toMatch(
          tokenOf(timeIn(startsAt, accountZone, lang)),
        );
        await settle(patientPage);
        await patientPage.screenshot({ path: `${shots}/appointment-${lang}-${width}.png`, fullPage: true });
        await patientPage.goto(pages.at(patientPage, `/visits/${appointmentId}`));
        await patientPage.getByTestId('visit-ended').waitFor({ timeout: 20_000 });
        await settle(patientPage);
        await patientPage.screenshot({ path: `${shots}/visit-ended-${lang}-${width}.png`, fullPage: true });

        const doctorPage = await pages.signedIn('medico1@example.com', lang, width);
        await doctorPage.goto(`${server.baseUrl}/admin/waiting-room`);
        await doctorPage.getByTestId('waiting-room-page').waitFor();
        await settle(doctorPage);
        await doctorPage.screenshot({ path: `${shots}/waiting-room-${lang}-${width}.png`, fullPage: true });
        await patientPage.context().close();
        await doctorPage.context().close();
      }
    }
  }, 240_000);
});
