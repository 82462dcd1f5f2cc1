import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession, ok } from './support/api.js';
import { blocking, describeViolations, runAxe } from './support/axe.js';
import { launchBrowser, type BrowserHandle } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';
import { openContext, openSignedIn } from './support/sign-in.js';
import { settle as settleAnimations } from './support/settle.js';
import { bookVisitNow, prepareDoctor, prepareVisitClinic } from './support/visits.js';

/**
 * Every screen of the app checked with axe-core (WCAG 2.x A/AA) as the role that sees it, in
 * Spanish (the first language) at 1440 px and the main ones at 375 px: no serious or critical
 * violation anywhere. One server, one browser, one signed-in context per role.
 */

let server: RunningServer;
let browser: BrowserHandle;

interface Fixture {
  patientId: string;
  doctorId: string;
  appointmentId: string;
  visitId: string;
  prescriptionId: string;
  verificationCode: string;
  roleId: string;
  userId: string;
  guestUrl: string;
}
const fixture = {} as Fixture;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser({ fakeMedia: true });
  const admin = await prepareVisitClinic(server.baseUrl);
  // Five-minute visits with doctor 2 (so they start now); doctor 1 keeps the demo agenda and chart.
  const doctor = await prepareDoctor(server.baseUrl, 'medico2@example.com');
  fixture.doctorId = doctor.id;
  const patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente1@example.com');
  fixture.patientId = (await ok(patient.request<{ user: { id: string } }>('GET', '/me'), 'GET /me')).user.id;
  fixture.appointmentId = await bookVisitNow(patient, doctor.id, 'Revisión de la tensión');
  fixture.visitId = await bookVisitNow(patient, doctor.id, 'Videoconsulta de control');
  const prescription = await ok(
    doctor.session.request<{ id: string; verificationCode: string }>(
      'POST',
      `/patients/${fixture.patientId}/prescriptions`,
      {
        appointmentId: fixture.appointmentId,
        items: [
          {
            medication: 'Amoxicilina 500 mg cápsulas',
            dose: '1 cápsula',
            route: 'Oral',
            frequency: 'Cada 8 horas',
            duration: '7 días',
            quantity: '21 cápsulas',
          },
        ],
      },
    ),
    'POST prescription',
  );
  fixture.prescriptionId = prescription.id;
  fixture.verificationCode = prescription.verificationCode;
  const roles = await ok(
    admin.request<{ data: { id: string; key: string }[] }>('GET', '/roles'),
    'GET /roles',
  );
  fixture.roleId = (roles.data.find((role) => role.key === 'doctor') ?? roles.data[0]!).id;
  const users = await ok(
    admin.request<{ data: { id: string; email: string }[] }>('GET', '/users?q=paciente2'),
    'GET /users',
  );
  fixture.userId = users.data[0]!.id;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Every page of this journey: the interface in Spanish, the test hooks on. */
const spanishWithHooks = { lang: 'es', testHooks: true } as const;

/** Waits for a screen to have its heading and no loader left (data shown, or its empty state). */
async function settle(page: Page): Promise<void> {
  await page.locator('h1, h2').first().waitFor({ timeout: 20_000 });
  await page
    .waitForFunction(
      () =>
        [...document.querySelectorAll('.mantine-Loader-root, [data-testid="spinner-overlay"]')].every(
          (element) => (element as HTMLElement).offsetParent === null,
        ),
      undefined,
      { timeout: 15_000 },
    )
    .catch(() => undefined);
  // Transitions (modals fade in 150 ms) and late paint.
  await settleAnimations(page);
}

const problems: string[] = [];
const checked: string[] = [];

/** Runs axe on the page as it is, records serious/critical violations under the screen's name. */
async function check(page: Page, screen: string): Promise<void> {
  await settle(page);
  // The user menu button is named "Menú de <name>", which holds its visible name; the avatar
  // initials beside it are decoration (aria-hidden) that axe still counts as visible text.
  const found = blocking(await runAxe(page, { exclude: ['[data-testid="user-menu-button"]'] }));
  checked.push(screen);
  if (found.length > 0) {
    problems.push(`${screen} (${new URL(page.url()).pathname}):\n${describeViolations(found)}`);
  }
}

async function visit(page: Page, path: string, screen: string): Promise<void> {
  await page.goto(`${server.baseUrl}${path}`);
  await check(page, screen);
}

function expectClean(): void {
  if (problems.length > 0) {
    throw new Error(`Serious or critical accessibility violations:\n\n${problems.join('\n\n')}`);
  }
}

describe('accessibility (axe, WCAG 2.x A/AA)', () => {
  it('public screens: sign-in, register, password, invitation, email verification, errors, verify, guest', async () => {
    problems.length = 0;
    for (const viewport of ['desktop', 'phone'] as const) {
      const page = await (await openContext(browser.browser, { ...spanishWithHooks, viewport })).newPage();
      const suffix = viewport === 'phone' ? ' @375' : '';
      await visit(page, '/', `sign-in${suffix}`);
      await visit(page, '/register', `register${suffix}`);
      if (viewport === 'desktop') {
        await page.getByTestId('register-submit').click();
        await check(page, 'register with errors');
        await visit(page, '/forgot-password', 'forgot password');
        await visit(page, '/reset-password?token=not-a-real-token-000000000', 'reset password');
        await visit(page, '/accept-invitation?token=not-a-real-token-000000000', 'accept invitation');
        await visit(page, '/verify-email?token=not-a-real-token-000000000', 'verify email');
        await visit(page, '/error-500', 'error 500');
        await visit(page, '/verify', 'verify prescription');
        await visit(page, `/verify/${fixture.verificationCode}`, 'verify prescription result');
      }
      await visit(page, '/no-such-place', `not found${suffix}`);
      await page.context().close();
    }
    expect(checked).toContain('verify prescription result');
    expectClean();
  });

  it('patient: dashboard, profile, doctors and booking, appointments, device check, waiting, chart, prescriptions', async () => {
    problems.length = 0;
    const page = await openSignedIn(
      browser.browser,
      server.baseUrl,
      'paciente1@example.com',
      spanishWithHooks,
    );
    // The patient's home is the portal's, built around the next visit.
    await page.getByTestId('portal-home').waitFor({ timeout: 20_000 });
    await check(page, 'patient dashboard');
    await page.evaluate(() =>
      window.__telemedicinaTest?.publishAlert({ type: 'success', content: '<p>Cita <b>reservada</b>.</p>' }),
    );
    await page.getByTestId('message-dialog-ok').waitFor();
    await check(page, 'message dialog');
    await page.getByTestId('message-dialog-ok').click();
    await visit(page, '/portal/profile', 'profile');
    await visit(page, '/portal/profile/photo', 'profile photo');
    await visit(page, '/portal/profile/security', 'profile security');
    await visit(page, '/portal/doctors', 'doctors directory');
    await visit(page, `/portal/doctors/${fixture.doctorId}`, 'doctor page with slots');
    await page.getByTestId('slot-picker-slot').first().click({ timeout: 15_000 });
    await page.getByTestId('booking-form').waitFor();
    await check(page, 'booking confirm dialog');
    await page.keyboard.press('Escape');
    await visit(page, '/portal/appointments', 'appointments list');
    await visit(page, `/portal/appointments/${fixture.appointmentId}`, 'appointment page');
    await visit(page, '/portal/my-record', 'my record');
    await visit(page, '/portal/profile/record-access', 'record access log');
    await visit(page, '/portal/profile/connected-apps', 'connected apps');
    await visit(page, '/portal/consents', 'my consents');
    await page.getByTestId('consent-sign').first().click({ timeout: 15_000 });
    await page.getByTestId('consent-body').waitFor({ timeout: 20_000 });
    await check(page, 'consent signing');
    await visit(page, `/portal/prescriptions/${fixture.prescriptionId}`, 'prescription');
    await visit(page, `/portal/visits/${fixture.visitId}/check`, 'device check');
    await page.getByTestId('device-check-risk').waitFor({ timeout: 20_000 });
    await check(page, 'device check done');
    await page.getByTestId('device-check-save').click();
    await page.getByTestId('visit-check-in').click({ timeout: 20_000 });
    await page.getByTestId('visit-waiting').waitFor({ timeout: 20_000 });
    await check(page, 'waiting (patient)');

    // The doctor admits; both sides see the call.
    const doctor = await openSignedIn(
      browser.browser,
      server.baseUrl,
      'medico2@example.com',
      spanishWithHooks,
    );
    await visit(doctor, '/admin/waiting-room', 'waiting room (doctor)');
    const entry = doctor.locator(`[data-testid="waiting-room-entry"][data-appointment="${fixture.visitId}"]`);
    await entry.getByTestId('waiting-room-admit').click({ timeout: 20_000 });
    await doctor.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    await page.getByTestId('visit-call').waitFor({ timeout: 20_000 });
    await check(doctor, 'visit call (doctor)');
    await check(page, 'visit call (patient)');

    // A guest joins through an invitation link.
    const invite = await ok(
      (await prepareDoctor(server.baseUrl, 'medico2@example.com')).session.request<{ url?: string }>(
        'POST',
        `/visits/${fixture.visitId}/guests`,
        { name: 'Irene Intérprete', role: 'interpreter', language: 'es' },
      ),
      'POST guest',
    );
    const guest = await (
      await openContext(browser.browser, { ...spanishWithHooks, viewport: 'phone' })
    ).newPage();
    await guest.goto((invite.url ?? '').replace(/^https?:\/\/[^/]+/, server.baseUrl));
    await guest.getByTestId('device-check').waitFor({ timeout: 20_000 });
    await check(guest, 'guest page @375');
    await guest.context().close();
    await doctor.context().close();
    await page.context().close();

    // The main patient screens at phone width.
    const phone = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
      ...spanishWithHooks,
      viewport: 'phone',
    });
    await phone.getByTestId('portal-home').waitFor({ timeout: 20_000 });
    await check(phone, 'patient dashboard @375');
    await visit(phone, `/portal/doctors/${fixture.doctorId}`, 'doctor page @375');
    await visit(phone, '/portal/appointments', 'appointments list @375');
    await visit(phone, `/portal/appointments/${fixture.appointmentId}`, 'appointment page @375');
    await visit(phone, '/portal/my-record', 'my record @375');
    await phone.context().close();
    expect(checked).toContain('visit call (patient)');
    expect(checked).toContain('consent signing');
    expectClean();
  });

  it('doctor and staff: dashboards, schedule, agenda, patients, chart, new prescription', async () => {
    problems.length = 0;
    const page = await openSignedIn(browser.browser, server.baseUrl, 'medico1@example.com', spanishWithHooks);
    await check(page, 'doctor dashboard');
    await visit(page, '/admin/schedule', 'my schedule');
    await visit(page, '/admin/agenda', 'agenda');
    const view = page.getByTestId('agenda-view');
    if (await view.isVisible()) {
      await view
        .getByText(/semana/i)
        .first()
        .click();
      await check(page, 'agenda (week)');
    }
    await visit(page, '/admin/patients', 'patients list');
    await visit(page, `/admin/patients/${fixture.patientId}`, 'chart');
    await visit(page, `/admin/patients/${fixture.patientId}/prescriptions/new`, 'new prescription');
    await visit(page, '/admin/questionnaires', 'questionnaires (doctor)');
    await visit(page, '/admin/questionnaires/new', 'new questionnaire (doctor)');
    await page.context().close();

    const phone = await openSignedIn(browser.browser, server.baseUrl, 'medico1@example.com', {
      ...spanishWithHooks,
      viewport: 'phone',
    });
    await visit(phone, `/admin/patients/${fixture.patientId}`, 'chart @375');
    await visit(phone, '/admin/agenda', 'agenda @375');
    await phone.context().close();

    const staff = await openSignedIn(
      browser.browser,
      server.baseUrl,
      'recepcion@example.com',
      spanishWithHooks,
    );
    await check(staff, 'staff dashboard');
    await staff.context().close();
    expect(checked).toContain('new prescription');
    expect(checked).toContain('new questionnaire (doctor)');
    expectClean();
  });

  it('admin: dashboard, users, roles, specialties, doctor schedule, audit, outbox, settings', async () => {
    problems.length = 0;
    const page = await openSignedIn(browser.browser, server.baseUrl, 'admin@example.com', spanishWithHooks);
    await check(page, 'admin dashboard');
    await visit(page, '/admin/users', 'users');
    await visit(page, `/admin/users/${fixture.userId}`, 'user detail');
    const disable = page.getByTestId('user-action-disable');
    if (await disable.isVisible()) {
      await disable.click();
      await page.getByTestId('user-action-dialog-confirm').waitFor();
      await check(page, 'confirm dialog');
      await page.keyboard.press('Escape');
    }
    await visit(page, '/admin/roles', 'roles');
    await visit(page, `/admin/roles/${fixture.roleId}`, 'role editor');
    await visit(page, '/admin/specialties', 'specialties');
    await visit(page, `/admin/doctors/${fixture.doctorId}/schedule`, 'doctor schedule');
    await visit(page, '/admin/audit', 'audit log');
    await visit(page, '/admin/outbox', 'outbox');
    await visit(page, '/admin/settings', 'settings');
    await visit(page, '/admin/apps', 'registered apps');
    await visit(page, '/admin/consent-documents', 'consent documents');
    await page.getByTestId('consent-document-edit').first().click({ timeout: 15_000 });
    await page.waitForURL(/\/admin\/consent-documents\/[\w-]+$/);
    await check(page, 'consent document editor');
    await visit(page, '/admin/questionnaires', 'questionnaires');
    await page.getByRole('link', { name: /PHQ-9/ }).first().click({ timeout: 15_000 });
    await page.waitForURL(/\/admin\/questionnaires\/[\w-]+$/);
    await check(page, 'questionnaire (PHQ-9, shipped)');
    await page.context().close();

    const phone = await openSignedIn(browser.browser, server.baseUrl, 'admin@example.com', {
      ...spanishWithHooks,
      viewport: 'phone',
    });
    await check(phone, 'admin dashboard @375');
    await visit(phone, '/admin/users', 'users @375');
    await visit(phone, '/admin/audit', 'audit log @375');
    await visit(phone, '/admin/questionnaires/new', 'new questionnaire @375');
    await phone.context().close();
    expect(checked).toContain('settings');
    expect(checked).toEqual(
      expect.arrayContaining([
        'consent document editor',
        'questionnaire (PHQ-9, shipped)',
        'new questionnaire @375',
      ]),
    );
    expectClean();
  });
});
