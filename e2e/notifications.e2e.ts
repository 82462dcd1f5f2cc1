import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, ok } from './support/api.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn, type Lang, type Viewport } from './support/sign-in.js';
import { whenRealtimeConnected } from './support/realtime.js';
import { settle } from './support/settle.js';

/**
 * The notification bell (list worded by kind, live arrival with a toast, mark read), the waiting
 * list on the doctor and appointment pages, and the outbox showing a booking email's calendar
 * file — in a real browser against the built server, with screenshots in Spanish and English at
 * desktop and phone widths.
 */

let server: RunningServer;
let browser: BrowserHandle;
let admin: ApiSession;
let patient: ApiSession;
let waiting: ApiSession;
let doctorId = '';
let free: string[] = [];
const booked: { id: string; startsAt: string }[] = [];

const variants: [Lang, Viewport][] = [
  ['es', 'desktop'],
  ['en', 'desktop'],
  ['es', 'phone'],
  ['en', 'phone'],
];

async function book(session: ApiSession, startsAt: string): Promise<string> {
  const appointment = await ok(
    session.request<{ id: string }>('POST', '/appointments', { doctorId, startsAt, reason: 'Control' }),
    'POST /appointments',
  );
  return appointment.id;
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  admin = new ApiSession(server.baseUrl);
  await admin.signIn('admin@example.com');
  patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente1@example.com');
  await ok(patient.request('PATCH', '/me', { timeZone: 'Europe/Madrid' }), 'PATCH /me');
  // The patient has signed the telemedicine consent, so a booking does not also ask for it.
  const me = await ok(patient.request<{ user: { id: string; name: string } }>('GET', '/me'), 'GET /me');
  const consents = await ok(
    patient.request<{
      items: { documentId: string; kind: string; currentVersionId: string; state: string }[];
    }>('GET', `/patients/${me.user.id}/consents`),
    'GET consents',
  );
  const telemedicine = consents.items.find((item) => item.kind === 'telemedicine')!;
  if (telemedicine.state !== 'signed') {
    await ok(
      patient.request('POST', `/consent-documents/${telemedicine.documentId}/signatures`, {
        versionId: telemedicine.currentVersionId,
        language: 'es',
        method: 'typed',
        typedName: me.user.name,
      }),
      'POST consent signature',
    );
  }
  waiting = new ApiSession(server.baseUrl);
  await waiting.signIn('paciente2@example.com');

  const directory = await ok(
    patient.request<{ data: { id: string; name: string }[] }>('GET', '/doctors?pageSize=50'),
    'GET /doctors',
  );
  // Dr. Gómez: his specialties ask no forms before the visit, so each booking sends exactly one notification.
  doctorId = directory.data.find((doctor) => doctor.name === 'Dr. Javier Gómez')!.id;
  // Free times from three days ahead (outside the cancellation window), over two weeks.
  const from = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const to = new Date(Date.now() + 17 * 86_400_000).toISOString();
  const slots = await ok(
    patient.request<{ slots: { startsAt: string }[] }>(
      'GET',
      `/doctors/${doctorId}/slots?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    ),
    'GET slots',
  );
  free = slots.slots.map((slot) => slot.startsAt);
  expect(free.length).toBeGreaterThan(8);

  // A booking, a booking moved, a waiting patient, and a cancelled booking that frees a time.
  booked.push({ id: await book(patient, free[4]!), startsAt: free[4]! });
  const moved = await book(patient, free[6]!);
  await ok(
    patient.request('POST', `/appointments/${moved}/reschedule`, { startsAt: free[2]! }),
    'POST reschedule',
  );
  booked.push({ id: moved, startsAt: free[2]! });
  await ok(waiting.request('POST', `/doctors/${doctorId}/waitlist`, {}), 'POST waitlist');
  const dropped = await book(patient, free[8]!);
  await ok(patient.request('POST', `/appointments/${dropped}/cancel`, {}), 'POST cancel');
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('notification bell', () => {
  it('lists the patient’s notifications worded by kind, newest first, in both languages and widths', async () => {
    for (const [lang, viewport] of variants) {
      const page = await openPage(browser.browser, { lang, viewport });
      await signIn(page, server.baseUrl, 'paciente1@example.com');
      const bell = page.getByTestId('notification-bell');
      await expect
        .poll(() => bell.getAttribute('aria-label'), { timeout: 15_000 })
        .toBe(lang === 'es' ? 'Notificaciones: 5 sin leer' : 'Notifications: 5 unread');
      await bell.click();
      const panel = page.getByTestId('notification-panel');
      await panel.waitFor();
      // The list is a chunk of its own (fetched when idle, or now): wait for its rows.
      await panel.getByTestId('notification-item').first().waitFor();
      const kinds = await panel
        .getByTestId('notification-item')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
      expect(kinds).toEqual([
        'appointment.cancelled',
        'appointment.booked',
        'appointment.rescheduled',
        'appointment.booked',
        'appointment.booked',
      ]);
      const first = await panel.getByTestId('notification-item').first().textContent();
      expect(first).toContain(
        // The patient cancelled it themselves: their copy is addressed to them, not about them.
        lang === 'es' ? 'Usted canceló la cita' : 'You cancelled the appointment',
      );
      await settle(page);
      await screenshot(page, `notifications-bell-${lang}-${viewport}`);
      await page.context().close();
    }
  });

  it('adds a notification that arrives live, with a toast, and marks everything read', async () => {
    const page = await openPage(browser.browser, { lang: 'es' });
    const connected = whenRealtimeConnected(page);
    await signIn(page, server.baseUrl, 'paciente1@example.com');
    const bell = page.getByTestId('notification-bell');
    await expect
      .poll(() => bell.getAttribute('aria-label'), { timeout: 15_000 })
      .toBe('Notificaciones: 5 sin leer');
    // The socket connects (and joins the user's room) once the list has loaded: book only then.
    await connected;
    booked.push({ id: await book(patient, free[10]!), startsAt: free[10]! });
    await expect
      .poll(() => bell.getAttribute('aria-label'), { timeout: 15_000 })
      .toBe('Notificaciones: 6 sin leer');
    const toast = page.locator('.mantine-Notification-root', { hasText: 'Cita confirmada' });
    await toast.waitFor({ timeout: 10_000 });
    expect(await toast.textContent()).toMatch(/Cita reservada para el/);
    await settle(page);
    await screenshot(page, 'notifications-toast-es-desktop');

    await bell.click();
    await page.getByTestId('notification-read-all').click();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notificaciones');
    const after = await ok(
      patient.request<{ unreadCount: number }>('GET', '/notifications'),
      'GET /notifications',
    );
    expect(after.unreadCount).toBe(0);
    await page.context().close();
  });

  it('tells the waiting patient about the freed time and leads to the doctor', async () => {
    const page = await openPage(browser.browser, { lang: 'es' });
    await signIn(page, server.baseUrl, 'paciente2@example.com');
    await page.getByTestId('notification-bell').click();
    const item = page.getByTestId('notification-item').first();
    expect(await item.getAttribute('data-kind')).toBe('waitlist.slotFreed');
    expect(await item.textContent()).toContain('Se liberó un horario antes');
    await item.getByTestId('notification-open').click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/portal/doctors/${doctorId}`);
    await page.context().close();
  });
});

describe('waiting list', () => {
  it('offers the patient with an appointment to wait for an earlier time, joins and leaves', async () => {
    for (const [lang, viewport] of variants) {
      const page = await openPage(browser.browser, { lang, viewport });
      await signIn(page, server.baseUrl, 'paciente1@example.com');
      await page.goto(`${server.baseUrl}/admin/doctors/${doctorId}`);
      const offer = page.getByTestId('waitlist-offer');
      await offer.waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('waitlist-only-before').isChecked()).toBe(true);
      await screenshot(page, `waitlist-doctor-offer-${lang}-${viewport}`);
      if (lang === 'es' && viewport === 'desktop') {
        await page.getByTestId('waitlist-join').click();
        await page.getByTestId('waitlist-status').waitFor();
        expect(await page.getByTestId('waitlist-status').textContent()).toMatch(/antes del/);
        const entry = await ok(
          patient.request<{ before: string | null }>('GET', `/doctors/${doctorId}/waitlist`),
          'GET waitlist',
        );
        // The next appointment with this doctor: the moved one, or an earlier one of the demo data.
        expect(Date.parse(entry.before ?? '')).toBeLessThanOrEqual(Date.parse(booked[1]!.startsAt));
        await screenshot(page, 'waitlist-doctor-joined-es-desktop');
        await page.getByTestId('waitlist-leave').click();
        await offer.waitFor();
        expect((await patient.request('GET', `/doctors/${doctorId}/waitlist`)).status).toBe(404);
      }
      await page.context().close();
    }
  });

  it('shows a waiting patient their place on the list', async () => {
    for (const [lang, viewport] of [
      ['es', 'phone'],
      ['en', 'desktop'],
    ] as [Lang, Viewport][]) {
      const page = await openPage(browser.browser, { lang, viewport });
      await signIn(page, server.baseUrl, 'paciente2@example.com');
      await page.goto(`${server.baseUrl}/admin/doctors/${doctorId}`);
      await page.getByTestId('waitlist-joined').waitFor({ timeout: 15_000 });
      expect(await page.getByTestId('waitlist-notified').textContent()).toMatch(
        lang === 'es' ? /Último aviso/ : /Last notice/,
      );
      await screenshot(page, `waitlist-doctor-joined-${lang}-${viewport}`);
      await page.context().close();
    }
  });

  it('offers "an earlier time" on an upcoming appointment', async () => {
    for (const [lang, viewport] of [
      ['es', 'desktop'],
      ['en', 'phone'],
    ] as [Lang, Viewport][]) {
      const page = await openPage(browser.browser, { lang, viewport });
      await signIn(page, server.baseUrl, 'paciente1@example.com');
      await page.goto(`${server.baseUrl}/admin/appointments/${booked[0]!.id}`);
      await page.getByTestId('waitlist-offer').waitFor({ timeout: 15_000 });
      await screenshot(page, `waitlist-appointment-${lang}-${viewport}`);
      await page.context().close();
    }
  });
});

describe('outbox attachments', () => {
  it('shows the booking email’s calendar file and downloads it', async () => {
    const list = await ok(
      admin.request<{ data: { id: string; to: string; template: string }[] }>(
        'GET',
        '/outbox?q=paciente1%40example.com&pageSize=50',
      ),
      'GET /outbox',
    );
    const email = list.data.find((item) => item.template === 'appointment-booked')!;
    for (const [lang, viewport] of variants) {
      const page = await openPage(browser.browser, { lang, viewport });
      await signIn(page, server.baseUrl, 'admin@example.com');
      await page.goto(`${server.baseUrl}/admin/outbox?message=${email.id}`);
      const link = page.getByTestId('outbox-attachment');
      await link.waitFor({ timeout: 15_000 });
      expect(await link.textContent()).toBe('cita.ics');
      expect(await page.getByTestId('outbox-attachments').textContent()).toMatch(/text\/calendar/);
      if (lang === 'es' && viewport === 'desktop') {
        const href = await link.getAttribute('href');
        const download = await page.request.get(`${server.baseUrl}${href}`);
        expect(download.status()).toBe(200);
        expect(download.headers()['content-disposition']).toBe('attachment; filename="cita.ics"');
        expect(await download.text()).toContain('BEGIN:VCALENDAR');
      }
      await screenshot(page, `outbox-attachment-${lang}-${viewport}`);
      await page.context().close();
    }
  });
});
