import type { ClinicSettings } from '@telemedicina/shared/clinic-settings';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleMe, sendError, startFakeApi, type FakeApi } from '../../../test/fake-api';
import { sendJson } from '../../../test/http-server';
import { currentPath, renderApp } from '../../../test/render-app';

const slow = { timeout: 10_000 };

function sampleSettings(): ClinicSettings {
  return {
    clinic: { name: 'Clínica Sol', logoUrl: null, timeZone: 'Europe/Madrid', language: 'es' },
    sessions: { idleMinutesStaff: 15, idleMinutesPatient: 30 },
    security: { mfaRequiredRoles: ['admin'] },
    booking: {
      minimumNoticeMinutes: 60,
      cancellationWindowHours: 24,
      visitLengths: [15, 30],
      defaultVisitMinutes: 30,
    },
    uploads: { maxFileSizeMb: 10, allowedKinds: ['pdf', 'png', 'jpeg'], maxFilesPerUpload: 5 },
    video: { iceServers: [{ urls: ['stun:stun.clinica.example:3478'] }] },
    privacy: { canStaffReadVisitReasons: false },
  };
}

const role = (key: string, es: string) => ({
  id: `r-${key}`,
  key,
  name: { es, en: es },
  system: true,
  permissions: [],
  userCount: 1,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('clinic settings against a real HTTP server', { timeout: 30_000 }, () => {
  let api: FakeApi;
  let settings: ClinicSettings;

  beforeAll(async () => {
    api = await startFakeApi();
    jsdom.reconfigure({ url: `${api.origin}/` });
  });
  afterAll(async () => {
    await api.close();
  });
  beforeEach(() => {
    api.reset();
    settings = sampleSettings();
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: ['settings.manage'] }));
    api.routes['GET /api/v1/config'] = (_request, response) =>
      sendJson(response, 200, {
        clinic: {
          name: settings.clinic.name,
          logoUrl: null,
          timeZone: 'Europe/Madrid',
          language: 'es',
          uploads: settings.uploads,
          visitLengths: settings.booking.visitLengths,
        },
      });
    api.routes['GET /api/v1/settings'] = (_request, response) => sendJson(response, 200, settings);
    api.routes['GET /api/v1/roles'] = (_request, response) =>
      sendJson(response, 200, {
        data: [role('admin', 'Administrador'), role('doctor', 'Médico'), role('patient', 'Paciente')],
        page: 1,
        pageSize: 100,
        total: 3,
      });
    api.routes['PATCH /api/v1/settings'] = (request, response) => {
      settings = { ...settings, ...(request.json() as Partial<ClinicSettings>) };
      settings.clinic = { ...settings.clinic, logoUrl: null };
      sendJson(response, 200, settings);
    };
  });

  const patchBodies = () =>
    api
      .requestsTo('PATCH /api/v1/settings')
      .map((request) => JSON.parse(request.body.toString('utf8')) as unknown);

  it('validates the clinic section, sends only that section and refreshes the public configuration', async () => {
    const user = userEvent.setup();
    renderApp('/admin/settings');
    const name = await screen.findByTestId<HTMLInputElement>('settings-clinic-name', {}, slow);
    expect(name.value).toBe('Clínica Sol');
    // The header shows the clinic's name from the public configuration.
    expect((await screen.findByTestId('admin-clinic-name')).textContent).toBe('Clínica Sol');

    await user.clear(name);
    await user.type(name, 'X');
    await user.click(screen.getByTestId('settings-clinic-save'));
    expect(await screen.findByText('El nombre debe tener al menos 2 caracteres.')).toBeTruthy();
    expect(patchBodies()).toEqual([]);

    await user.clear(name);
    await user.type(name, 'Clínica Luna');
    const configReads = api.requestsTo('GET /api/v1/config').length;
    await user.click(screen.getByTestId('settings-clinic-save'));
    expect(await screen.findByTestId('settings-clinic-saved')).toBeTruthy();
    expect(patchBodies()).toEqual([
      { clinic: { name: 'Clínica Luna', timeZone: 'Europe/Madrid', language: 'es' } },
    ]);
    await waitFor(() => expect(api.requestsTo('GET /api/v1/config').length).toBeGreaterThan(configReads));
    await waitFor(() => expect(screen.getByTestId('admin-clinic-name').textContent).toBe('Clínica Luna'));
  });

  it('keeps the open section in the address and saves the idle minutes on their own', async () => {
    const user = userEvent.setup();
    const { router } = renderApp('/admin/settings');
    await user.click(await screen.findByTestId('settings-tab-sessions', {}, slow));
    await waitFor(() => expect(currentPath(router)).toBe('/admin/settings?section=sessions'));
    const staff = screen.getByTestId<HTMLInputElement>('settings-idle-staff');
    await user.clear(staff);
    await user.click(screen.getByTestId('settings-sessions-save'));
    expect(
      await within(screen.getByTestId('settings-sessions')).findByText('Escriba un número.'),
    ).toBeTruthy();
    expect(patchBodies()).toEqual([]);

    await user.clear(staff);
    await user.type(staff, '20');
    await user.click(screen.getByTestId('settings-sessions-save'));
    expect(await screen.findByTestId('settings-sessions-saved')).toBeTruthy();
    expect(patchBodies()).toEqual([{ sessions: { idleMinutesStaff: 20, idleMinutesPatient: 30 } }]);
  });

  it('lets reception and administrators read visit reasons only when switched on (off by default)', async () => {
    const user = userEvent.setup();
    renderApp('/admin/settings?section=privacy');
    const toggle = await screen.findByTestId<HTMLInputElement>('settings-staff-read-visit-reasons', {}, slow);
    expect(toggle.checked).toBe(false);
    expect(screen.getByLabelText(/^Recepción y administración pueden leer el motivo de la consulta/)).toBe(
      toggle,
    );
    await user.click(toggle);
    await user.click(screen.getByTestId('settings-privacy-save'));
    expect(await screen.findByTestId('settings-privacy-saved')).toBeTruthy();
    expect(patchBodies()).toEqual([{ privacy: { canStaffReadVisitReasons: true } }]);
    expect(screen.getByTestId<HTMLInputElement>('settings-staff-read-visit-reasons').checked).toBe(true);
  });

  it('requires two-step verification by role with one checkbox per role', async () => {
    const user = userEvent.setup();
    renderApp('/admin/settings?section=security');
    const doctor = await screen.findByTestId<HTMLInputElement>('settings-mfa-role-doctor', {}, slow);
    expect(screen.getByTestId<HTMLInputElement>('settings-mfa-role-admin').checked).toBe(true);
    expect(doctor.checked).toBe(false);
    await user.click(doctor);
    await user.click(screen.getByTestId('settings-security-save'));
    expect(await screen.findByTestId('settings-security-saved')).toBeTruthy();
    expect(patchBodies()).toEqual([{ security: { mfaRequiredRoles: ['admin', 'doctor'] } }]);
  });

  it('sends the visit lengths ascending and refuses a default length that is not offered', async () => {
    const user = userEvent.setup();
    renderApp('/admin/settings?section=booking');
    const section = await screen.findByTestId('settings-booking', {}, slow);
    // Untick 30 (the default): the form refuses before asking the server.
    await user.click(within(section).getByRole('checkbox', { name: '30 minutos' }));
    await user.click(screen.getByTestId('settings-booking-save'));
    expect(
      await within(section).findByText(
        'La duración predeterminada debe ser una de las duraciones de visita.',
      ),
    ).toBeTruthy();
    expect(patchBodies()).toEqual([]);

    // Offer 60 and 45 (a custom length), then pick 45 as the default.
    await user.click(within(section).getByRole('checkbox', { name: '60 minutos' }));
    await user.type(screen.getByTestId('settings-add-length'), '45');
    await user.click(screen.getByTestId('settings-add-length-button'));
    await user.selectOptions(screen.getByTestId('settings-default-visit'), '45');
    await user.click(screen.getByTestId('settings-booking-save'));
    expect(await screen.findByTestId('settings-booking-saved')).toBeTruthy();
    expect(patchBodies()).toEqual([
      {
        booking: {
          minimumNoticeMinutes: 60,
          cancellationWindowHours: 24,
          visitLengths: [15, 45, 60],
          defaultVisitMinutes: 45,
        },
      },
    ]);
  });

  it('puts the server validation issues beside the fields of the section', async () => {
    const user = userEvent.setup();
    api.routes['PATCH /api/v1/settings'] = (_request, response) =>
      sendError(response, 400, 'VALIDATION_FAILED', {
        issues: [{ path: ['uploads', 'maxFileSizeMb'], message: 'validation.range' }],
      });
    renderApp('/admin/settings?section=uploads');
    const section = await screen.findByTestId('settings-uploads', {}, slow);
    await user.click(screen.getByTestId('settings-kind-pdf'));
    await user.click(screen.getByTestId('settings-kind-webp'));
    await user.click(screen.getByTestId('settings-uploads-save'));
    expect(await within(section).findByText('El valor está fuera del rango permitido.')).toBeTruthy();
    // The kinds keep the catalogue's order, whatever order they were ticked in.
    expect(patchBodies()).toEqual([
      { uploads: { maxFileSizeMb: 10, allowedKinds: ['png', 'jpeg', 'webp'], maxFilesPerUpload: 5 } },
    ]);
    expect(screen.getByTestId<HTMLInputElement>('settings-max-file-size').getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(screen.queryByTestId('settings-uploads-saved')).toBeNull();
  });

  it('refuses to save uploads without any allowed kind', async () => {
    const user = userEvent.setup();
    renderApp('/admin/settings?section=uploads');
    await screen.findByTestId('settings-uploads', {}, slow);
    for (const kind of ['pdf', 'png', 'jpeg']) {
      await user.click(screen.getByTestId(`settings-kind-${kind}`));
    }
    await user.click(screen.getByTestId('settings-uploads-save'));
    expect(await screen.findByTestId('settings-allowed-kinds')).toBeTruthy();
    await waitFor(() =>
      expect(
        within(screen.getByTestId('settings-uploads')).getAllByText(/no es válido|fuera del rango/).length,
      ).toBeGreaterThan(0),
    );
    expect(patchBodies()).toEqual([]);
  });

  it('edits the ICE servers: rows of addresses with an optional username and password', async () => {
    const user = userEvent.setup();
    renderApp('/admin/settings?section=video');
    await screen.findByTestId('settings-video', {}, slow);
    expect(screen.getAllByTestId('settings-ice-row')).toHaveLength(1);
    await user.click(screen.getByTestId('settings-ice-add'));
    const rows = screen.getAllByTestId('settings-ice-row');
    expect(rows).toHaveLength(2);
    const second = rows[1]!;
    await user.type(within(second).getByTestId('settings-ice-urls'), 'http://wrong.example{enter}');
    await user.type(within(second).getByTestId('settings-ice-username'), 'clinica');
    const credential = within(second).getByTestId<HTMLInputElement>('settings-ice-credential');
    expect(credential.type).toBe('password');
    await user.type(credential, 's3creto');
    await user.click(screen.getByTestId('settings-video-save'));
    expect(
      await within(second).findByText('Escriba una dirección stun:, stuns:, turn: o turns: sin espacios.'),
    ).toBeTruthy();
    expect(patchBodies()).toEqual([]);

    // Replace the wrong row by a good one.
    await user.click(within(second).getByTestId('settings-ice-remove'));
    await user.click(screen.getByTestId('settings-ice-add'));
    const fresh = screen.getAllByTestId('settings-ice-row')[1]!;
    await user.type(within(fresh).getByTestId('settings-ice-urls'), 'turn:turn.clinica.example:3478{enter}');
    await user.type(within(fresh).getByTestId('settings-ice-username'), 'clinica');
    await user.type(within(fresh).getByTestId('settings-ice-credential'), 's3creto');
    await user.click(screen.getByTestId('settings-video-save'));
    expect(await screen.findByTestId('settings-video-saved')).toBeTruthy();
    expect(patchBodies()).toEqual([
      {
        video: {
          iceServers: [
            { urls: ['stun:stun.clinica.example:3478'] },
            { urls: ['turn:turn.clinica.example:3478'], username: 'clinica', credential: 's3creto' },
          ],
        },
      },
    ]);
  });

  it('is not offered and not asked for without settings.manage', async () => {
    api.routes['GET /api/v1/me'] = (_request, response) =>
      sendJson(response, 200, sampleMe({ permissions: [] }));
    renderApp('/admin/settings');
    expect(await screen.findByTestId('section-forbidden', {}, slow)).toBeTruthy();
    expect(screen.queryByTestId('admin-nav-settings')).toBeNull();
    expect(api.requestsTo('GET /api/v1/settings')).toHaveLength(0);
  });
});
