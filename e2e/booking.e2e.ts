import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { openPage, signIn } from './support/sign-in.js';
import { settle } from './support/settle.js';

let server: RunningServer;
let browser: BrowserHandle;

/** The demo doctors' zone, and the patient's own (different on purpose: mixing them up must show). */
const doctorZone = 'America/Mexico_City';
const patientZone = 'Europe/Madrid';
const doctorEmails: Record<string, string> = {
  'Dra. Lucía Martínez': 'medico1@example.com',
  'Dr. Javier Gómez': 'medico2@example.com',
};

let patientApi: ApiSession;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  patientApi = new ApiSession(server.baseUrl);
  await patientApi.signIn('paciente1@example.com');
  const changed = await patientApi.request('PATCH', '/me', { timeZone: patientZone });
  expect(changed.status).toBe(200);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const pathOf = (page: Page) => new URL(page.url()).pathname;

/** The date (`YYYY-MM-DD`) and 24-hour time (`HH:MM`) an instant reads in a zone. */
function wallClock(iso: string, timeZone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return {
    date: `${part('year')}-${part('month')}-${part('day')}`,
    time: `${part('hour')}:${part('minute')}`,
  };
}

interface BookedAppointment {
  id: string;
  startsAt: string;
  doctor: { id: string; name: string; timeZone: string };
}

/** Waits for the booking confirmation to `to` in the outbox (read with an administrator's page). */
async function bookingEmail(admin: Page, to: string) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const list = (await (
      await admin.request.get(`${server.baseUrl}/api/v1/outbox?q=${encodeURIComponent(to)}&pageSize=50`)
    ).json()) as { data: { id: string; to: string; template: string }[] };
    const match = list.data.find((item) => item.to === to && item.template === 'appointment-booked');
    if (match) {
      return (await (await admin.request.get(`${server.baseUrl}/api/v1/outbox/${match.id}`)).json()) as {
        id: string;
        attachments: { filename: string; contentType: string; size: number }[];
      };
    }
    if (Date.now() > deadline) {
      throw new Error(`No booking email to ${to} in the outbox`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Moves the slot picker to the next week and waits until it shows that week. */
async function nextWeek(page: Page): Promise<void> {
  const heading = page.getByTestId('slot-picker-week');
  const before = await heading.textContent();
  await page.getByTestId('slot-picker-next').click();
  await expect.poll(() => heading.textContent(), { timeout: 15_000 }).not.toBe(before);
}

/** Waits for the slot picker to show free times, moving to the next week while one has none. */
async function waitForSlots(page: Page): Promise<void> {
  for (let week = 0; week < 4; week += 1) {
    const slot = page.getByTestId('slot-picker-slot').first();
    const empty = page.getByTestId('slot-picker-empty');
    await slot.or(empty).first().waitFor({ timeout: 15_000 });
    if (await slot.isVisible()) {
      return;
    }
    await nextWeek(page);
  }
  throw new Error('No free slots in four weeks');
}

/**
 * Picks the first free time starting after `after`, moving week by week. The booking the later
 * tests move and cancel must start outside the clinic's cancellation window (24 hours by default):
 * the first free time of the week can be this afternoon, and then the patient may no longer change
 * it (409 CANCELLATION_WINDOW_PASSED), as on a Thursday morning run.
 */
async function pickSlotAfter(page: Page, after: Date): Promise<void> {
  for (let week = 0; week < 4; week += 1) {
    await waitForSlots(page);
    const starts = await page
      .getByTestId('slot-picker-slot')
      .evaluateAll((slots) => slots.map((slot) => slot.getAttribute('data-starts-at') ?? ''));
    const index = starts.findIndex((start) => new Date(start).getTime() > after.getTime());
    if (index >= 0) {
      await page.getByTestId('slot-picker-slot').nth(index).click();
      return;
    }
    await nextWeek(page);
  }
  throw new Error(`No free slot after ${after.toISOString()} in four weeks`);
}

describe('booking in the browser', () => {
  let appointmentPath = '';
  let booked: BookedAppointment | null = null;

  it('a patient finds a doctor by specialty, books a free time and sees the appointment', async () => {
    const page = await openPage(browser.browser, { lang: 'es' });
    await signIn(page, server.baseUrl, 'paciente1@example.com');
    await page.goto(`${server.baseUrl}/admin/doctors`);
    await page.getByTestId('list-row').first().waitFor({ timeout: 15_000 });
    await page.getByTestId('doctors-filter-specialty').selectOption({ label: 'Pediatría' });
    await expect.poll(() => new URL(page.url()).searchParams.has('specialtyId')).toBe(true);
    await expect.poll(() => page.getByTestId('list-row').count(), { timeout: 15_000 }).toBe(1);
    const name = (await page.getByTestId('doctor-row-name').first().textContent()) ?? '';
    expect(await page.getByTestId('doctor-row-specialties').first().textContent()).toContain('Pediatría');

    await page.getByTestId('list-row-link').first().click();
    await expect.poll(() => page.getByTestId('doctor-name').textContent(), { timeout: 15_000 }).toBe(name);
    await pickSlotAfter(page, new Date(Date.now() + 48 * 3_600_000));
    await page.getByTestId('booking-form').waitFor();
    await page.getByTestId('booking-reason').fill('Control de la tos de mi hijo');
    await page.getByTestId('booking-confirm').click();
    // The patient's booking lands on the appointment in their portal, where patients live.
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toMatch(/^\/portal\/appointments\/[\w-]+$/);
    appointmentPath = pathOf(page);
    await expect
      .poll(() => page.getByTestId('appointment-doctor').textContent(), { timeout: 15_000 })
      .toBe(name);
    expect(await page.getByTestId('appointment-reason').textContent()).toBe('Control de la tos de mi hijo');

    await page.goto(`${server.baseUrl}/admin/appointments`);
    await page.getByTestId('list-row').first().waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('appointments-table').textContent()).toContain(name);
    await page.context().close();

    const answer = await patientApi.request<BookedAppointment>('GET', appointmentPath.replace('/portal', ''));
    expect(answer.status).toBe(200);
    booked = answer.body;
    expect(booked.doctor.name).toBe(name);
  });

  it("the doctor finds the booking on the agenda at the doctor's wall-clock time, and the email has the .ics", async () => {
    expect(booked).not.toBeNull();
    const { id, startsAt, doctor } = booked!;
    expect(doctor.timeZone).toBe(doctorZone);
    const wall = wallClock(startsAt, doctorZone);
    // The patient's clock says something else: a grid drawn in the viewer's zone would be caught.
    expect(wallClock(startsAt, patientZone).time).not.toBe(wall.time);

    const page = await openPage(browser.browser, { lang: 'es' });
    await signIn(page, server.baseUrl, doctorEmails[doctor.name]!);
    await page.getByTestId('admin-nav-agenda').click();
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe('/admin/agenda');
    // Week view of the booking's week (the date in the address, in the doctor's zone).
    await page.goto(`${server.baseUrl}/admin/agenda?date=${wall.date}`);
    const block = page.locator(
      `[data-testid="agenda-column"][data-date="${wall.date}"] [data-testid="agenda-block"][href="/admin/appointments/${id}"]`,
    );
    await block.waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('agenda-day-header').count()).toBe(7);
    expect(await block.getAttribute('data-start')).toBe(wall.time);
    const shown = new Intl.DateTimeFormat('es', {
      timeZone: doctorZone,
      hour: 'numeric',
      minute: '2-digit',
    }).format(new Date(startsAt));
    expect(await block.getByTestId('agenda-block-time').textContent()).toMatch(new RegExp(`^${shown}(–|$)`));
    expect(await block.textContent()).toContain('Pablo Paciente');
    // The zone in words, never its IANA id (one clock: a zone is read as words).
    expect(await page.getByTestId('agenda-zone').textContent()).toContain('hora de Ciudad de México');
    expect(await page.getByTestId('agenda-zone').textContent()).not.toMatch(/America\//);
    // The block leads to the appointment.
    await block.click();
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe(`/admin/appointments/${id}`);
    await page.context().close();

    // The confirmation in the outbox carries the invitation, starting at the booked instant.
    const admin = await openPage(browser.browser, { lang: 'es' });
    await signIn(admin, server.baseUrl, 'admin@example.com');
    const email = await bookingEmail(admin, 'paciente1@example.com');
    const index = email.attachments.findIndex((file) => file.filename.endsWith('.ics'));
    expect(index).toBeGreaterThanOrEqual(0);
    expect(email.attachments[index]!.contentType).toMatch(/^text\/calendar/);
    const ics = await (
      await admin.request.get(`${server.baseUrl}/api/v1/outbox/${email.id}/attachments/${index}`)
    ).text();
    expect(ics).toContain('BEGIN:VCALENDAR');
    const dtstart = `DTSTART:${startsAt.replace(/[-:]/g, '').replace(/\.\d{3}/, '')}`;
    expect(ics).toContain(dtstart);

    // Administrators reach the same editor for any doctor from the doctor's page.
    await admin.goto(`${server.baseUrl}/admin/doctors/${doctor.id}`);
    await admin.getByTestId('doctor-edit-schedule').click();
    await expect.poll(() => pathOf(admin), { timeout: 15_000 }).toBe(`/admin/doctors/${doctor.id}/schedule`);
    expect(await admin.getByTestId('schedule-title').textContent()).toBe(`Horario de ${doctor.name}`);
    await admin.getByTestId('schedule-range').first().waitFor({ timeout: 15_000 });
    await admin.getByTestId('schedule-tab-profile').click();
    expect(await admin.getByTestId('schedule-profile-license').isEnabled()).toBe(true);
    await screenshot(admin, 'schedule-admin-profile-es-desktop');
    await admin.context().close();
  });

  it('the doctor edits the weekly hours and removes an exception from "My schedule"', async () => {
    expect(booked).not.toBeNull();
    const email = doctorEmails[booked!.doctor.name]!;
    const doctorApi = new ApiSession(server.baseUrl);
    await doctorApi.signIn(email);
    const base = `/doctors/${booked!.doctor.id}/availability/exceptions`;
    const in60Days = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    const in90Days = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
    for (const [kind, day, reason] of [
      ['time_off', in60Days, 'Congreso de pediatría'],
      ['extra', in90Days, 'Campaña de vacunación'],
    ] as const) {
      const created = await doctorApi.request('POST', base, {
        kind,
        startsAt: `${day}T15:00:00.000Z`,
        endsAt: `${day}T19:00:00.000Z`,
        reason,
      });
      expect(created.status).toBe(201);
    }

    const page = await openPage(browser.browser, { lang: 'es' });
    await signIn(page, server.baseUrl, email);
    await page.getByTestId('admin-nav-schedule').click();
    await expect.poll(() => pathOf(page), { timeout: 15_000 }).toBe('/admin/schedule');
    await page.getByTestId('schedule-range').first().waitFor({ timeout: 15_000 });
    // The zone in words, never its IANA id (one clock: a zone is read as words).
    expect(await page.getByTestId('schedule-zone').textContent()).toContain('hora de Ciudad de México');
    expect(await page.getByTestId('schedule-zone').textContent()).not.toMatch(/America\//);
    // Saturday gets a morning range; saved as a whole, it is there after a reload.
    const saturday = page.locator('[data-testid="schedule-day"][data-weekday="6"]');
    expect(await saturday.getByTestId('schedule-range').count()).toBe(0);
    await saturday.getByTestId('schedule-add-range').click();
    await saturday.getByTestId('schedule-range-end').selectOption('12:00');
    await page.getByTestId('schedule-hours-save').click();
    await page.getByTestId('schedule-hours-saved').waitFor({ timeout: 15_000 });
    await page.reload();
    await saturday.getByTestId('schedule-range').first().waitFor({ timeout: 15_000 });
    expect(await saturday.getByTestId('schedule-range-start').inputValue()).toBe('09:00');
    expect(await saturday.getByTestId('schedule-range-end').inputValue()).toBe('12:00');
    const rules = await doctorApi.request<{ rules: { weekday: number; start: string; end: string }[] }>(
      'GET',
      `/doctors/${booked!.doctor.id}/availability/rules`,
    );
    expect(
      rules.body.rules.filter((rule) => rule.weekday === 6).map((rule) => [rule.start, rule.end]),
    ).toEqual([['09:00', '12:00']]);
    // …and removed again, so the other journeys keep the demo week.
    await saturday.getByTestId('schedule-range-remove').click();
    await page.getByTestId('schedule-hours-save').click();
    await page.getByTestId('schedule-hours-saved').waitFor({ timeout: 15_000 });

    await page.getByTestId('schedule-tab-exceptions').click();
    await expect.poll(() => page.getByTestId('schedule-exception').count(), { timeout: 15_000 }).toBe(2);
    await page.getByTestId('schedule-exception-add').click();
    await page.getByTestId('schedule-exception-form').waitFor();
    await settle(page);
    await screenshot(page, 'schedule-exception-form-es-desktop');
    await page.getByTestId('schedule-exception-save').click();
    // No dates chosen: refused beside the field, nothing created.
    await page.getByText('Este campo es obligatorio.').waitFor();
    await page.getByRole('button', { name: 'Cancelar' }).click();
    await page.getByTestId('schedule-exception-delete').last().click();
    await page.getByTestId('schedule-exception-delete-dialog-confirm').click();
    await expect.poll(() => page.getByTestId('schedule-exception').count(), { timeout: 15_000 }).toBe(1);
    const left = await doctorApi.request<{ data: { reason: string }[] }>('GET', base);
    expect(left.body.data.map((exception) => exception.reason)).toEqual(['Congreso de pediatría']);
    await page.context().close();
  });

  for (const lang of ['es', 'en'] as const) {
    for (const viewport of ['desktop', 'phone'] as const) {
      it(`agenda, schedule and staff screens in ${lang} on ${viewport}`, async () => {
        expect(booked).not.toBeNull();
        const { doctor, startsAt } = booked!;
        const wall = wallClock(startsAt, doctorZone);
        const suffix = `${lang}-${viewport}`;
        const page = await openPage(browser.browser, { lang, viewport });
        await signIn(page, server.baseUrl, doctorEmails[doctor.name]!);

        await page.goto(`${server.baseUrl}/admin/agenda?date=${wall.date}`);
        await page.getByTestId('agenda-block').first().waitFor({ timeout: 15_000 });
        await settle(page);
        await screenshot(page, `agenda-week-${suffix}`);
        await page.goto(`${server.baseUrl}/admin/agenda?date=${wall.date}&view=day`);
        await page.getByTestId('agenda-block').first().waitFor({ timeout: 15_000 });
        await settle(page);
        await screenshot(page, `agenda-day-${suffix}`);

        await page.goto(`${server.baseUrl}/admin/schedule`);
        await page.getByTestId('schedule-range').first().waitFor({ timeout: 15_000 });
        await screenshot(page, `schedule-hours-${suffix}`);
        await page.getByTestId('schedule-tab-exceptions').click();
        await page
          .getByTestId('schedule-exception')
          .or(page.getByTestId('schedule-exceptions-empty'))
          .first()
          .waitFor();
        await screenshot(page, `schedule-exceptions-${suffix}`);
        await page.getByTestId('schedule-tab-profile').click();
        await page.getByTestId('schedule-profile').waitFor();
        await settle(page);
        await screenshot(page, `schedule-profile-${suffix}`);
        await page.context().close();

        const staff = await openPage(browser.browser, { lang, viewport });
        await signIn(staff, server.baseUrl, 'recepcion@example.com');
        await staff.goto(
          `${server.baseUrl}/admin/appointments?period=all&doctorId=${doctor.id}&from=${wall.date}&to=${wall.date}`,
        );
        await staff.getByTestId('list-row').first().waitFor({ timeout: 15_000 });
        await settle(staff);
        await screenshot(staff, `staff-appointments-${suffix}`);
        // Reception picks whose agenda to see.
        await staff.goto(`${server.baseUrl}/admin/agenda?doctorId=${doctor.id}&date=${wall.date}`);
        await staff.getByTestId('agenda-block').first().waitFor({ timeout: 15_000 });
        await settle(staff);
        await screenshot(staff, `agenda-staff-${suffix}`);
        await staff.context().close();
      });
    }
  }

  for (const lang of ['es', 'en'] as const) {
    for (const viewport of ['desktop', 'phone'] as const) {
      it(`screens in ${lang} on ${viewport}`, async () => {
        const page = await openPage(browser.browser, { lang, viewport });
        await signIn(page, server.baseUrl, 'paciente1@example.com');
        const suffix = `${lang}-${viewport}`;
        await page.goto(`${server.baseUrl}/admin/doctors`);
        await page.getByTestId('doctor-next-slot').first().waitFor({ timeout: 15_000 });
        await screenshot(page, `booking-directory-${suffix}`);

        await page.getByTestId('list-row-link').first().click();
        await page.getByTestId('doctor-name').waitFor({ timeout: 15_000 });
        await waitForSlots(page);
        await screenshot(page, `booking-doctor-${suffix}`);
        await page.getByTestId('slot-picker-slot').first().click();
        await page.getByTestId('booking-form').waitFor();
        await settle(page);
        await screenshot(page, `booking-modal-${suffix}`);
        await page.getByTestId('booking-cancel').click();

        await page.goto(`${server.baseUrl}/admin/appointments`);
        await page.getByTestId('list-row').first().waitFor({ timeout: 15_000 });
        await screenshot(page, `booking-appointments-${suffix}`);
        if (appointmentPath) {
          await page.goto(`${server.baseUrl}${appointmentPath}`);
          await page.getByTestId('appointment-doctor').waitFor({ timeout: 15_000 });
          await screenshot(page, `booking-appointment-${suffix}`);
        }
        await page.context().close();
      });
    }
  }
  it('the patient moves the appointment to another free time, then cancels it', async () => {
    expect(appointmentPath).not.toBe('');
    const page = await openPage(browser.browser, { lang: 'es' });
    await signIn(page, server.baseUrl, 'paciente1@example.com');
    await page.goto(`${server.baseUrl}${appointmentPath}`);
    const before = await page.getByTestId('appointment-when').textContent();
    await page.getByTestId('appointment-reschedule').click();
    await page.getByTestId('reschedule-dialog').waitFor();
    // A free time (so not the current one) outside the 24-hour cancellation window: the last one
    // of the week shown could be tomorrow morning on a Saturday run, and then the patient may no
    // longer cancel it.
    await pickSlotAfter(page, new Date(Date.now() + 48 * 3_600_000));
    await screenshot(page, 'booking-reschedule-es-desktop');
    await page.getByTestId('reschedule-confirm').click();
    await expect
      .poll(() => page.getByTestId('appointment-when').textContent(), { timeout: 15_000 })
      .not.toBe(before);

    await page.getByTestId('appointment-cancel').click();
    await page.getByTestId('cancel-reason').fill('Ya me encuentro mejor');
    await page.getByTestId('cancel-dialog-confirm').click();
    await expect
      .poll(
        async () => {
          // A refusal shows in the dialog: report it rather than wait for a status that will not come.
          const refusal = page.getByTestId('cancel-error');
          if (await refusal.isVisible()) {
            return `refused: ${await refusal.textContent()}`;
          }
          return page.getByTestId('appointment-status').textContent();
        },
        { timeout: 15_000 },
      )
      .toBe('Cancelada');
    await page.context().close();
  });
});
