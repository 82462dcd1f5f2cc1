import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiSession } from './support/api.js';
import { launchBrowser, screenshot, type BrowserHandle } from './support/browser.js';
import { startSmtpCatcher, type SmtpCatcher } from './support/mail.js';
import { startServer, type RunningServer } from './support/server.js';
import { demoPassword, openSignedIn } from './support/sign-in.js';
import { settle } from './support/settle.js';
import { clickThrough } from './support/navigation.js';

let server: RunningServer;
let mail: SmtpCatcher;
let browser: BrowserHandle;
let patientId: string;
const outsiderEmail = 'medico3@example.com';
const reason = 'Paciente atendido en urgencias sin consciencia; necesito conocer sus alergias.';

/** A doctor with no appointment with any patient (invited by the admin), for the emergency access. */
async function inviteOutsiderDoctor(): Promise<void> {
  const admin = new ApiSession(server.baseUrl);
  await admin.signIn('admin@example.com');
  const invited = await admin.request('POST', '/invitations', {
    email: outsiderEmail,
    name: 'Dr. Tomás Urgencias',
    roleKeys: ['doctor'],
    language: 'es',
  });
  expect(invited.status).toBeLessThan(300);
  const token = new URL(await mail.waitForLink(outsiderEmail, '/accept-invitation')).searchParams.get(
    'token',
  );
  const accepted = await new ApiSession(server.baseUrl).request('POST', '/auth/invitations/accept', {
    token,
    password: demoPassword,
    acceptTerms: true,
  });
  expect(accepted.status).toBeLessThan(300);
}

beforeAll(async () => {
  // The invitation link reaches the invitee by email (the outbox hides its secret).
  mail = await startSmtpCatcher();
  server = await startServer({ env: { SMTP_URL: mail.url } });
  browser = await launchBrowser();
  const patient = new ApiSession(server.baseUrl);
  await patient.signIn('paciente1@example.com');
  patientId = (await patient.request<{ user: { id: string } }>('GET', '/me')).body.user.id;
  await inviteOutsiderDoctor();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await mail?.close();
});

async function settleAtTop(page: Page): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await settle(page);
}

/*
 * One journey in steps (each its own test, so a slow machine's time is counted per step and a
 * failure names the step); later steps use the earlier ones' pages and entries.
 */
describe('patient chart', () => {
  let doctor: Page;
  let patient: Page;

  it('the treating doctor finds the patient in their list and adds an allergy, a condition and a medication', async () => {
    doctor = await openSignedIn(browser.browser, server.baseUrl, 'medico1@example.com', {
      lang: 'es',
      viewport: 'desktop',
    });
    await clickThrough(
      doctor,
      doctor.getByTestId('admin-nav-patients'),
      doctor.getByTestId('patients-table'),
      'records: the doctor opens the patients list',
    );
    await doctor.getByTestId('patient-row-name').filter({ hasText: 'Pablo Paciente' }).first().click();
    await doctor.getByTestId('chart').waitFor({ timeout: 20_000 });
    expect(doctor.url()).toBe(`${server.baseUrl}/admin/patients/${patientId}`);
    expect(await doctor.getByTestId('chart').getAttribute('data-access')).toBe('treating');
    await doctor.getByTestId('chart-add-allergy').click();
    await doctor.getByTestId('record-entry-save').click();
    await doctor.getByText('Este campo es obligatorio.').first().waitFor();
    await doctor.getByTestId('allergy-substance').fill('Penicilina');
    await doctor.getByTestId('allergy-severity').selectOption('severe');
    await doctor.getByTestId('record-entry-save').click();
    await doctor.getByTestId('chart-allergy').filter({ hasText: 'Penicilina' }).waitFor({ timeout: 20_000 });
    await doctor.getByTestId('chart-add-condition').click();
    await doctor.getByTestId('condition-description').fill('Hipertensión arterial');
    await doctor.getByTestId('record-entry-save').click();
    await doctor
      .getByTestId('chart-condition')
      .filter({ hasText: 'Hipertensión' })
      .waitFor({ timeout: 20_000 });
    await doctor.getByTestId('chart-add-medication').click();
    await doctor.getByTestId('medication-name').fill('Enalapril 10 mg');
    await doctor.getByTestId('record-entry-save').click();
    await doctor
      .getByTestId('chart-medication')
      .filter({ hasText: 'Enalapril' })
      .waitFor({ timeout: 20_000 });
    await doctor.context().close();
  });

  it('the patient sees the allergy in their own chart (read-only lists) and the doctor in the access log', async () => {
    patient = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
      lang: 'es',
      viewport: 'desktop',
    });
    // The patient's portal: its navigation (header on desktop, bottom bar on phones).
    await patient.locator('[data-testid="portal-nav-myRecord"]:visible').click();
    await patient.getByTestId('chart-allergy').filter({ hasText: 'Penicilina' }).waitFor({ timeout: 20_000 });
    expect(await patient.getByTestId('chart-add-allergy').count()).toBe(0);
    expect(await patient.getByTestId('chart-remove').count()).toBe(0);
    await patient.getByTestId('my-record-access-log').click();
    await patient.getByTestId('record-access-table').waitFor();
    await patient.getByTestId('access-row-who').filter({ hasText: 'Dra. Lucía Martínez' }).first().waitFor();
  });

  it('a doctor without a relationship is refused, then opens the chart with a reasoned emergency access the patient sees', async () => {
    // A doctor without a relationship is refused, then opens the chart with a reasoned emergency access.
    const outsider = await openSignedIn(browser.browser, server.baseUrl, outsiderEmail, {
      lang: 'es',
      viewport: 'desktop',
    });
    await outsider.goto(`${server.baseUrl}/admin/patients/${patientId}`);
    await outsider.getByTestId('chart-not-found').waitFor({ timeout: 20_000 });
    expect(await outsider.getByTestId('chart').count()).toBe(0);
    await outsider.getByTestId('chart-emergency-open').click();
    await outsider.getByTestId('emergency-confirm').click();
    await outsider.getByText('Explique el motivo con al menos 20 caracteres.').waitFor();
    await outsider.getByTestId('emergency-reason').fill(reason);
    await settleAtTop(outsider);
    await screenshot(outsider, 'records-emergency-es-desktop');
    await outsider.getByTestId('emergency-confirm').click();
    await outsider.getByTestId('chart-emergency-banner').waitFor({ timeout: 20_000 });
    expect(await outsider.getByTestId('chart').getAttribute('data-access')).toBe('emergency');
    await outsider.getByTestId('chart-allergy').filter({ hasText: 'Penicilina' }).waitFor();

    // The patient's log shows the emergency access with its reason.
    await patient.reload();
    await patient
      .getByTestId('access-row-reason')
      .filter({ hasText: reason })
      .first()
      .waitFor({ timeout: 20_000 });
    await settleAtTop(patient);
    await screenshot(patient, 'records-access-log-es-desktop');
    await outsider.context().close();
    await patient.context().close();
  });

  // Screens for people to look at, in both languages, desktop and phone.
  it.for([
    ['es', 'desktop'],
    ['en', 'desktop'],
    ['es', 'phone'],
    ['en', 'phone'],
  ] as const)(
    'the patient list, both charts, the access log and the emergency form (%s, %s)',
    async ([lang, viewport]) => {
      const doctorPage = await openSignedIn(browser.browser, server.baseUrl, 'medico1@example.com', {
        lang,
        viewport,
      });
      await doctorPage.goto(`${server.baseUrl}/admin/patients`);
      await doctorPage.getByTestId('patient-row-name').first().waitFor({ timeout: 20_000 });
      await settleAtTop(doctorPage);
      await screenshot(doctorPage, `records-patients-${lang}-${viewport}`);
      await doctorPage.goto(`${server.baseUrl}/admin/patients/${patientId}`);
      await doctorPage.getByTestId('chart-allergy').first().waitFor({ timeout: 20_000 });
      await settleAtTop(doctorPage);
      await screenshot(doctorPage, `records-chart-doctor-${lang}-${viewport}`);
      await doctorPage.context().close();

      const patientPage = await openSignedIn(browser.browser, server.baseUrl, 'paciente1@example.com', {
        lang,
        viewport,
      });
      await patientPage.goto(`${server.baseUrl}/admin/my-record`);
      await patientPage.getByTestId('chart-allergy').first().waitFor({ timeout: 20_000 });
      await settleAtTop(patientPage);
      await screenshot(patientPage, `records-chart-patient-${lang}-${viewport}`);
      await patientPage.goto(`${server.baseUrl}/admin/profile/record-access`);
      await patientPage.getByTestId('access-row-reason').first().waitFor({ timeout: 20_000 });
      await settleAtTop(patientPage);
      await screenshot(patientPage, `records-access-log-${lang}-${viewport}`);
      await patientPage.context().close();

      if (lang !== 'es' || viewport !== 'desktop') {
        const outsiderPage = await openSignedIn(browser.browser, server.baseUrl, 'medico2@example.com', {
          lang,
          viewport,
        });
        await outsiderPage.goto(`${server.baseUrl}/admin/patients/00000000-0000-4000-8000-000000000000`);
        await outsiderPage.getByTestId('chart-emergency-open').click();
        await outsiderPage.getByTestId('emergency-reason').fill(reason);
        await settleAtTop(outsiderPage);
        await screenshot(outsiderPage, `records-emergency-${lang}-${viewport}`);
        await outsiderPage.context().close();
      }
    },
  );
});
