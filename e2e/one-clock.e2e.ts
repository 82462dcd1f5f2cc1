import { mkdirSync } from 'node:fs';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, readLatestEmail } from './support/api.js';
import { launchBrowser, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { settle } from './support/settle.js';
import { bookVisitNow, prepareDoctor, prepareVisitClinic, signInPage } from './support/visits.js';

/*
 * One clock: the browser runs in Madrid, both accounts live in Mexico City (a clinic with patients
 * abroad, a doctor travelling). Every screen must say one appointment's time — and the times of
 * its chat, prescription and visit — as the account's wall clock, never the device's.
 */

const deviceZone = 'Europe/Madrid';
const accountZone = 'America/Mexico_City';
const shots = '/tmp/shots';

type Lang = 'es' | 'en';

let server: RunningServer;
let browser: BrowserHandle;
let admin: ApiSession;
let doctor: ApiSession;
let doctorId: string;
let patient: ApiSession;
let patientId: string;
let appointmentId: string;
let startsAt: string;
let endsAt: string;
const contexts: BrowserContext[] = [];

async function ok<T>(answer: Promise<{ status: number; body: T }>, what: string): Promise<T> {
  const { status, body } = await answer;
  if (status >= 300) {
    throw new Error(`${what} answered ${status}: ${JSON.stringify(body)}`);
  }
  return body;
}

/** "6:07" / "6:07 AM": an instant's time of day in a zone, as the app writes it. */
function timeIn(instant: string, timeZone: string, lang: Lang = 'es'): string {
  return new Intl.DateTimeFormat(lang, { timeZone, hour: 'numeric', minute: '2-digit' }).format(
    new Date(instant),
  );
}

/** The time as a whole token ("6:07" must not match inside "16:07"). */
function tokenOf(time: string): RegExp {
  return new RegExp(`(?<![\\d:])${time.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\d])`);
}

/** The locator's text holds the instant's account wall clock and not the device's. */
async function expectAccountClock(locator: Locator, instant: string, where: string): Promise<string> {
  await locator.first().waitFor({ timeout: 20_000 });
  const text = await locator.first().innerText();
  // Soft: one run lists every screen that says another time, not only the first.
  expect.soft(text, `${where}: account time`).toMatch(tokenOf(timeIn(instant, accountZone)));
  expect.soft(text, `${where}: not the device's time`).not.toMatch(tokenOf(timeIn(instant, deviceZone)));
  return text;
}

async function openContext(lang: Lang, width: number, fakeMedia = false): Promise<BrowserContext> {
  const context = await browser.browser.newContext({
    locale: lang === 'en' ? 'en-US' : 'es-ES',
    timezoneId: deviceZone,
    viewport: { width, height: width < 600 ? 844 : 900 },
    ...(fakeMedia ? { permissions: ['camera', 'microphone'] } : {}),
  });
  await context.addInitScript(
    ({ language, id }) => {
      window.localStorage.setItem('telemedicina.language', language);
      window.sessionStorage.setItem('telemedicina.languageChosen', '1');
      // The device check is the visit journey's subject, not this one's.
      window.sessionStorage.setItem(`telemedicina.visit.checked.${id}`, '1');
    },
    { language: lang, id: appointmentId },
  );
  contexts.push(context);
  return context;
}

async function signedIn(email: string, lang: Lang, width: number): Promise<Page> {
  const page = await (await openContext(lang, width)).newPage();
  await signInPage(page, server.baseUrl, email);
  return page;
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await startServer();
  browser = await launchBrowser({ fakeMedia: true });
  admin = await prepareVisitClinic(server.baseUrl);
  const prepared = await prepareDoctor(server.baseUrl, 'medico1@example.com');
  doctor = prepared.session;
  doctorId = prepared.id;
  patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente1@example.com');
  for (const session of [doctor, patient]) {
    await ok(session.request('PATCH', '/me', { timeZone: accountZone, language: 'es' }), 'PATCH /me');
  }
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
  for (const context of contexts) {
    await context.close().catch(() => undefined);
  }
  await browser?.close();
  await server?.stop();
});

describe('one clock, with the browser in Madrid and the accounts in Mexico City', () => {
  it('shows one appointment at the same wall-clock time on every screen, in the account’s zone', async () => {
    const patientPage = await signedIn('paciente1@example.com', 'es', 1280);
    const doctorPage = await signedIn('medico1@example.com', 'es', 1280);

    // The appointment page.
    await patientPage.goto(`${server.baseUrl}/admin/appointments/${appointmentId}`);
    await expectAccountClock(patientPage.getByTestId('appointment-when'), startsAt, 'appointment page');

    // Home.
    await patientPage.goto(`${server.baseUrl}/admin`);
    await expectAccountClock(patientPage.getByTestId('home-upcoming'), startsAt, 'home');

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
    await patientPage.goto(`${server.baseUrl}/admin/visits/${appointmentId}`);
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
  }, 240_000);

  it('looks right in Spanish and English, on a phone and a desktop (screenshots)', async () => {
    for (const lang of ['es', 'en'] as const) {
      for (const width of [390, 1280]) {
        const patientPage = await signedIn('paciente1@example.com', lang, width);
        await patientPage.goto(`${server.baseUrl}/admin/appointments/${appointmentId}`);
        await patientPage.getByTestId('appointment-when').waitFor();
        await patientPage.getByTestId('time-zone-notice').waitFor();
        expect(await patientPage.getByTestId('appointment-when').innerText()).toMatch(
          tokenOf(timeIn(startsAt, accountZone, lang)),
        );
        await settle(patientPage);
        await patientPage.screenshot({ path: `${shots}/appointment-${lang}-${width}.png`, fullPage: true });
        await patientPage.goto(`${server.baseUrl}/admin/visits/${appointmentId}`);
        await patientPage.getByTestId('visit-ended').waitFor({ timeout: 20_000 });
        await settle(patientPage);
        await patientPage.screenshot({ path: `${shots}/visit-ended-${lang}-${width}.png`, fullPage: true });

        const doctorPage = await signedIn('medico1@example.com', lang, width);
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
